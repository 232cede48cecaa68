#!/usr/bin/env node
// The `activity-site` command of the npm package: finds the binary of this
// platform, installed by npm as one of the optional dependencies
// (`activity-site-<platform>-<arch>`, the one whose `os`, `cpu` and `libc`
// match), and runs it with the same arguments, standard streams and exit
// status. ACTIVITY_SITE_BINARY names another binary to run instead.
//
// Plain CommonJS with nothing newer than Node 16 (the `engines` field):
// `node:` module names, `require.resolve`, `spawnSync` with inherited stdio.
'use strict';

const { spawnSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const pkg = `activity-site-${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'activity-site.exe' : 'activity-site';

function binary() {
  const given = process.env.ACTIVITY_SITE_BINARY;
  if (given) return given;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin', exe);
  } catch (err) {
    process.stderr.write(
      `activity-site: the package ${pkg} is not installed, so there is no binary for ${process.platform}-${process.arch}.\n` +
        'It is an optional dependency of activity-site: reinstall without --no-optional / --omit=optional, ' +
        'or, on a platform without a package, install the binary from the release archives or with cargo and set ACTIVITY_SITE_BINARY to it.\n' +
        `activity-site：没有安装 ${pkg} 包，因此没有 ${process.platform}-${process.arch} 平台的程序。` +
        '它是 activity-site 的可选依赖：请去掉 --no-optional / --omit=optional 重新安装；' +
        '若所在平台没有对应的包，请从发布页面的压缩包或用 cargo 安装程序，并把 ACTIVITY_SITE_BINARY 设为它的路径。\n',
    );
    process.exit(2);
  }
}

const bin = binary();
const result = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
if (result.error) {
  process.stderr.write(`activity-site: cannot run ${bin}: ${result.error.message}\n`);
  process.stderr.write(`activity-site：无法运行 ${bin}：${result.error.message}\n`);
  process.exit(2);
}
if (result.signal) {
  // Ended by a signal: end this process by the same one, as a shell would see it.
  // Node ignores some signals (SIGPIPE); then exit as a shell reports one.
  process.kill(process.pid, result.signal);
  process.exit(128 + (os.constants.signals[result.signal] || 0));
}
process.exit(result.status === null ? 2 : result.status);
