// Instants from the published times: an RFC 3339 time with its offset is
// read as it is; a naive `YYYY-MM-DDTHH:MM:SS` is the wall time of an IANA
// zone, resolved like RFC 9557 / Temporal's "compatible" (the earlier offset
// in a fold, shifted forward by the gap in a gap), which is what the site's
// own `startsAt`/`endsAt` say.
const NAIVE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;
/** An RFC 3339 date-time with an offset (`2026-07-29T06:00:00+08:00`) as a Date. */
export function parseInstant(text) {
    const time = OFFSET.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(time))
        throw new TypeError(`not an RFC 3339 time with an offset: ${text}`);
    return new Date(time);
}
const formatters = new Map();
/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(zone, epochMs) {
    let format = formatters.get(zone);
    if (!format) {
        // Throws a RangeError for a zone the platform does not know.
        format = new Intl.DateTimeFormat("en-US", {
            timeZone: zone,
            hourCycle: "h23",
            year: "numeric",
            month: "2-digit",
            day: "2-digit",
            hour: "2-digit",
            minute: "2-digit",
            second: "2-digit",
        });
        formatters.set(zone, format);
    }
    const part = {};
    for (const { type, value } of format.formatToParts(new Date(epochMs))) {
        if (type !== "literal")
            part[type] = Number(value);
    }
    const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
    return wall - Math.floor(epochMs / 1000) * 1000;
}
/** A naive wall time (`2026-07-29T06:00:00`) of an IANA zone as a Date. */
export function naiveToInstant(text, zone) {
    const m = NAIVE.exec(text);
    if (!m)
        throw new TypeError(`not a time of the form YYYY-MM-DDTHH:MM:SS: ${text}`);
    const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
    const wall = Date.UTC(year, month - 1, day, hour, minute, second);
    // No zone changes its offset twice within two days: the offsets a day
    // before and a day after are the only two candidates.
    const before = offsetAt(zone, wall - 86_400_000);
    const after = offsetAt(zone, wall + 86_400_000);
    const fits = [before, after].filter((offset) => offsetAt(zone, wall - offset) === offset);
    if (fits.length > 0)
        return new Date(wall - Math.max(...fits));
    // A gap: the wall time does not exist; the offset before it moves it forward.
    return new Date(wall - before);
}
