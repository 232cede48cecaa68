// The control API as the service's own web UI uses it: Axios with base URL
// `/api` and the `X-Access-Token` header, URLs in the case the UI writes them
// (`/auth`, `/Task/status`, `/backend/screenshot`, `/api/backend/logs/stream`),
// the bodies it sends (often none), the fields it reads, an EventSource log
// stream with `access_token=` in the query, and forms built from the
// `AppSettings` / `TasksConfig` schemas of `/openapi/v1.json`.
//
// Run by .ci/e2e-webui.sh against `activity-site serve`: BASE is the server's
// address, TOKEN its access token (empty: no token configured).
import axios, { type AxiosInstance } from 'axios'
import { EventSource } from 'eventsource'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BASE = process.env.BASE ?? ''
const TOKEN = process.env.TOKEN ?? ''
// REAL=1: the server runs the real backend (`sra-cli`, .ci/e2e-backend.sh).
// On Linux its jobs end at once (no game window, no task that can last) and
// its screenshot fails: the checks that need a lasting job or a picture
// become checks of the real program's answers.
const REAL = process.env.REAL === '1'
const ARGUMENTS = REAL ? '--inline --no-admin' : '--inline --no-admin --step-ms=150'
if (!BASE) throw new Error('BASE is not set; run .ci/e2e-webui.sh')

type Envelope<T = unknown> = { success: boolean; message: string; data?: T }
type Schema = {
  $ref?: string
  type?: string | string[]
  description?: string
  enum?: unknown[]
  default?: unknown
  properties?: Record<string, Schema>
}
type Doc = { components: { schemas: Record<string, Schema> } }

/** An Axios client shaped like the UI's: base URL `/api`, token header when logged in. */
function client(token: string): AxiosInstance {
  const http = axios.create({ baseURL: `${BASE}/api`, timeout: 15_000, validateStatus: () => true })
  http.interceptors.request.use((config) => {
    if (token) config.headers['X-Access-Token'] = token
    return config
  })
  return http
}

const http = client(TOKEN)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `data` of a successful envelope; fails the test with the server's message otherwise. */
async function data<T>(reply: Promise<{ status: number; data: Envelope<T> }>): Promise<T> {
  const { status, data: body } = await reply
  expect(body, `HTTP ${status}: ${JSON.stringify(body)}`).toMatchObject({ success: true })
  expect(status).toBe(200)
  return body.data as T
}

async function status(): Promise<Record<string, unknown>> {
  return data(http.get('/Task/status'))
}

async function settle(): Promise<string[]> {
  const seen: string[] = []
  const deadline = Date.now() + 60_000
  for (;;) {
    const s = await status()
    seen.push(String(s.status))
    if (s.status !== 'running') return seen
    if (Date.now() > deadline) throw new Error(`still running: ${JSON.stringify(s)}`)
    await sleep(100)
  }
}

/** Follows `$ref` inside the document, as a schema-driven form does. */
function resolve(doc: Doc, node: Schema): Schema {
  if (!node.$ref) return node
  const name = node.$ref.replace('#/components/schemas/', '')
  const target = doc.components.schemas[name]
  if (!target) throw new Error(`dangling $ref ${node.$ref}`)
  return target
}

/** The model a form builds from a schema: objects recurse, leaves take `default`. */
function defaults(doc: Doc, node: Schema): unknown {
  const schema = resolve(doc, node)
  if (schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties).map(([key, child]) => [key, defaults(doc, child)]),
    )
  }
  return schema.default
}

/** Every field of `value` must have a form field in `node` (a form drops the others). */
function missingFields(doc: Doc, node: Schema, value: unknown, path: string): string[] {
  const schema = resolve(doc, node)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return []
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const property = schema.properties?.[key]
    if (!property) return [`${path}.${key}`]
    return missingFields(doc, property, child, `${path}.${key}`)
  })
}

const LOG_LINE = REAL
  ? // The real program's levels (loguru's), padded to five.
    /^(\d{2}:\d{2}:\d{2}) \| (TRACE|DEBUG|INFO |SUCCESS|WARNING|WARN |ERROR|CRITICAL) \| (.*)$/s
  : /^(\d{2}:\d{2}:\d{2}) \| (INFO |WARN |ERROR|DEBUG) \| (.*)$/s
const RUN_CONFIG = REAL ? 'Nothing' : 'Default'

describe(`the web UI's calls (${TOKEN ? 'with a token' : 'without a token'})`, () => {
  let doc: Doc

  beforeAll(async () => {
    // Short simulated steps, so runs finish quickly (the contract's restart body).
    await data(http.post('/Backend/restart', { arguments: ARGUMENTS }))
    if (REAL) {
      // Every task off: what the real program can run to the end on Linux.
      const off = { enabled: false }
      const nothing = { startGame: off, trailblazePower: off, receiveRewards: off, cosmicStrife: off, missionAccomplished: off }
      await http.delete('/Configs/Nothing')
      await data(http.post('/Configs/Nothing', nothing))
    }
    // The UI fetches the document without a token (it is public).
    const reply = await fetch(`${BASE}/openapi/v1.json`)
    expect(reply.status).toBe(200)
    doc = (await reply.json()) as Doc
  })

  it('login page: POST /api/auth decides by status code', async () => {
    const login = (token: string) =>
      axios.post(`${BASE}/api/auth`, { token }, { validateStatus: () => true })
    if (TOKEN) {
      expect((await login('wrong')).status).toBe(401)
      expect((await login(TOKEN)).status).toBe(200)
      const anonymous = await client('').get('/Task/status')
      expect(anonymous.status).toBe(401)
      // The message the client compares, and where the token goes (issue 48).
      expect(anonymous.data.success).toBe(false)
      expect(anonymous.data.message).toBe('unauthorized')
      expect(anonymous.data.data.help).toContain('X-Access-Token')
      expect(anonymous.data.data.help).toContain('access_token')
    } else {
      const reply = await login('')
      expect(reply.status).toBe(200)
      expect(reply.data.message).toBe('No access token configured')
    }
  })

  it('home page: greetings and system information', async () => {
    const phrases = await data<string[]>(http.get('/App/phrases'))
    expect(phrases.length).toBeGreaterThan(0)
    for (const phrase of phrases) expect(typeof phrase).toBe('string')
    const info = await data<Record<string, unknown>>(http.get('/App/system-info'))
    expect(typeof info.version).toBe('string')
    expect(typeof info.osVersion).toBe('string')
    expect(typeof info.architecture).toBe('string')
    expect(info.dotnetVersion).toBeNull()
    expect(info.processorCount).toBeGreaterThan(0)
    expect(typeof info.cultureInfo).toBe('string')
  })

  it('configuration panel: TasksConfig tabs, load, create, save, delete', async () => {
    const root = resolve(doc, { $ref: '#/components/schemas/TasksConfig' })
    const tabs = Object.keys(root.properties ?? {})
    expect(tabs).toEqual([
      'startGame',
      'trailblazePower',
      'receiveRewards',
      'cosmicStrife',
      'missionAccomplished',
    ])
    for (const node of Object.values(root.properties ?? {})) {
      expect(resolve(doc, node).description, 'a tab label').toBeTruthy()
    }
    expect(await data<string[]>(http.get('/Configs'))).toContain('Default')
    const stored = await data<Record<string, unknown>>(http.get('/Configs/Default'))
    expect(missingFields(doc, root, stored, 'TasksConfig')).toEqual([])
    const model = defaults(doc, root) as Record<string, Record<string, unknown>>
    expect(model).toEqual(stored)

    const name = 'E2E web UI'
    const path = `/Configs/${encodeURIComponent(name)}`
    await data(http.post(path)) // the UI creates with no body
    expect(await data<string[]>(http.get('/Configs'))).toContain(name)
    const edited = { ...stored, ...model, trailblazePower: { ...model.trailblazePower, runs: 2 } }
    await data(http.put(path, edited))
    const saved = await data<Record<string, Record<string, unknown>>>(http.get(path))
    expect(saved.trailblazePower?.runs).toBe(2)
    const again = await http.post(path)
    expect(again.status).toBe(409)
    expect(again.data.success).toBe(false)
    await data(http.delete(path))
    expect((await http.get(path)).status).toBe(404)
  })

  it('settings page: AppSettings sections, load, partial save', async () => {
    const root = resolve(doc, { $ref: '#/components/schemas/AppSettings' })
    const sections = Object.keys(root.properties ?? {})
    expect(sections).toEqual(['general', 'display', 'update', 'advanced', 'notification'])
    const settings = await data<Record<string, Record<string, unknown>>>(http.get('/Settings'))
    expect(missingFields(doc, root, settings, 'AppSettings')).toEqual([])
    const model = defaults(doc, root) as Record<string, Record<string, unknown>>
    const display = resolve(doc, root.properties!.display!)
    expect(display.properties?.theme?.enum).toEqual(['system', 'light', 'dark'])
    // The page overlays the stored values on the defaults, then saves the changed sections.
    for (const [key, section] of Object.entries(settings)) Object.assign(model[key]!, section)
    model.display!.theme = 'dark'
    const saved = await http.put('/Settings', { display: model.display })
    expect(saved.status).toBe(200)
    expect(saved.data.data).toContain('display.theme')
    // The desktop client's dotted keys (remote mode).
    const remote = await http.put('/Settings', {
      advanced: { 'backend.remote.enabled': true, 'backend.remote.url': BASE, 'backend.remote.accessToken': TOKEN },
    })
    expect(remote.status).toBe(200)
    const after = await data<Record<string, Record<string, any>>>(http.get('/Settings'))
    expect(after.display!.theme).toBe('dark')
    expect(after.advanced!.backend.remote).toEqual({ enabled: true, url: BASE, accessToken: TOKEN })
  })

  it('status card: the fields it reads, and running -> stopped around a stop', async () => {
    const idle = await status()
    expect(['idle', 'completed', 'stopped', 'failed']).toContain(idle.status)
    expect(typeof idle.session_id).toBe('string')
    expect(idle.pid).toBeGreaterThan(0)
    expect(idle.mode).not.toBe('unknown')
    expect(Array.isArray(idle.configs)).toBe(true)
    expect(typeof idle.unit).toBe('string')
    expect(typeof idle.progress).toBe('string') // the contract's text; the numbers are beside it
    expect(typeof idle.completedTasks).toBe('number')
    expect(typeof idle.totalTasks).toBe('number')

    // A run completes, through the five values the UI knows only.
    await data(http.post('/Task/run', { configName: RUN_CONFIG }))
    const running = await status()
    // The real program on Linux may already have failed by the first poll (below).
    expect(REAL ? ['running', 'completed', 'failed'] : ['running']).toContain(running.status)
    expect(running.configs).toEqual([RUN_CONFIG])
    const seen = await settle()
    for (const s of seen) expect(['idle', 'running', 'completed', 'failed', 'stopped']).toContain(s)
    const done = await status()
    if (REAL) {
      // On Linux the real program fails every run of a stored configuration
      // with its own words: its operator needs pyautogui and a game window.
      expect(done.status).toBe('failed')
      expect(String(done.error)).toContain('pyautogui')
    } else expect(done.status).toBe('completed')
    expect(done.completedTasks).toBe(done.totalTasks)

    // A stop: the UI's POST has no body, and then it polls until the status leaves running.
    if (REAL) {
      // Nothing lasts on Linux: a stop with nothing running answers the status.
      const stop = await data<Record<string, unknown>>(http.post('/Task/stop'))
      expect(stop.status).toBe('failed')
      expect(stop.stopping).toBe(false)
      return
    }
    await data(http.post('/Task/run', { configName: 'Default' }))
    const stop = await data<Record<string, unknown>>(http.post('/Task/stop'))
    expect(stop.status).toBe('running')
    expect(stop.stopping).toBe(true)
    const afterStop = await settle()
    expect(afterStop.at(-1)).toBe('stopped')
    for (const s of afterStop) expect(['running', 'stopped']).toContain(s)
    const stopped = await status()
    expect(stopped.stopping).toBe(false)
  })

  it('backend card: stop refuses tasks until a restart; live view screenshot', async () => {
    const shot = async () =>
      axios.get(`${BASE}/api/backend/screenshot`, {
        // The live view adds a cache-busting `t`; with a token, the query carries it.
        params: TOKEN ? { t: Date.now(), access_token: TOKEN } : { t: Date.now() },
        responseType: 'arraybuffer',
        validateStatus: () => true,
      })
    const png = await shot()
    if (REAL) {
      // No game window here: the backend's own error, as a 500 envelope.
      expect(png.status).toBe(500)
      const body = JSON.parse(Buffer.from(png.data).toString('utf8')) as Envelope
      expect(body.success).toBe(false)
      expect(body.message).toContain('Operator')
    }
    if (!REAL) {
    expect(png.status).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
    const bytes = Buffer.from(png.data)
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1280, 720])
    }

    await data(http.post('/Backend/stop'))
    const down = await status()
    expect(down.pid).toBe(0)
    const refused = await http.post('/Task/run', { configName: 'Default' })
    expect(refused.status).toBe(500)
    expect(refused.data.message).toContain('backend not running')
    expect((await shot()).status).toBe(500)
    await data(http.post('/Backend/restart', { arguments: ARGUMENTS }))
    expect((await status()).pid).toBeGreaterThan(0)
  })

  describe('log page: EventSource with the token in the query', () => {
    const sources: EventSource[] = []
    afterAll(() => sources.forEach((s) => s.close()))

    const open = (token: string) => {
      const url = token
        ? `${BASE}/api/backend/logs/stream?access_token=${encodeURIComponent(token)}`
        : `${BASE}/api/backend/logs/stream`
      const source = new EventSource(url)
      sources.push(source)
      return source
    }

    it('streams lines in the backend shape `HH:MM:SS | LEVEL | message`', async () => {
      const source = open(TOKEN)
      const lines: string[] = []
      source.onmessage = (event) => lines.push(String(event.data))
      await new Promise<void>((resolve, reject) => {
        source.onopen = () => resolve()
        source.onerror = () => reject(new Error('the stream did not open'))
      })
      await data(http.post('/Task/run', { configName: RUN_CONFIG }))
      await settle()
      await sleep(300)
      source.close()
      if (REAL) expect(lines.some((l) => l.endsWith('| DEBUG | [Done]'))).toBe(true)
      else expect(lines.some((l) => l.includes('Job') && l.includes('completed'))).toBe(true)
      for (const line of lines) expect(line).toMatch(LOG_LINE)
      const recent = await data<string[]>(http.get('/Backend/logs', { params: { count: 20 } }))
      for (const line of recent) expect(line).toMatch(LOG_LINE)
    })

    it.runIf(TOKEN)('refuses a wrong token', async () => {
      const source = open('wrong')
      const outcome = await new Promise<string>((resolve) => {
        source.onopen = () => resolve('opened')
        source.onerror = (event) => resolve(`error ${(event as { code?: number }).code ?? ''}`)
      })
      source.close()
      expect(outcome).toBe('error 401')
    })
  })
})
