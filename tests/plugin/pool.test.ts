/**
 * The compiled client's connection pool (dist/client/pool.js) loads undici's Pool and request modules, not the
 * package's index (which loads undici's whole web API and Node's own copy of undici, on the plugin's first call),
 * and its pools still answer `request` with undici's Promise API. Run in a child Node so that the modules it
 * loads are its own, not Jest's.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "../e2e/engine";

const SCRIPT = `
const http = require("node:http");
const { acquirePool } = require(${JSON.stringify(path.join(repoRoot, "dist", "client", "pool.js"))});
const server = http.createServer((req, res) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ method: req.method, url: req.url }));
});
server.listen(0, "127.0.0.1", async () => {
  const lease = acquirePool("http://127.0.0.1:" + server.address().port, 1000);
  const res = await lease.dispatcher.request({ method: "DELETE", path: "/api/groups/g1" });
  const body = await res.body.json();
  await lease.release();
  server.close();
  const undiciFiles = Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]/.test(f));
  process.stdout.write(JSON.stringify({
    status: res.statusCode,
    body,
    index: undiciFiles.some((f) => /[\\\\/]undici[\\\\/]index\\.js$/.test(f)),
    fetch: undiciFiles.some((f) => /[\\\\/]lib[\\\\/]web[\\\\/]/.test(f)),
    pool: undiciFiles.some((f) => /[\\\\/]lib[\\\\/]dispatcher[\\\\/]pool\\.js$/.test(f)),
  }));
});
`;

test("a pool sends requests without loading undici's index or its web API", () => {
  const out = JSON.parse(
    execFileSync(process.execPath, ["-e", SCRIPT], { encoding: "utf8", timeout: 20_000 }),
  );
  expect(out).toEqual({
    status: 200,
    body: { method: "DELETE", url: "/api/groups/g1" },
    index: false,
    fetch: false,
    pool: true,
  });
});
