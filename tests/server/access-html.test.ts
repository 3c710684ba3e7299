/**
 * `privnet-access show --format html` in a real headless browser (Debian's chromium, installed by
 * `npm run setup` through scripts/browser.sh): the page renders, its picture is drawn, and it loads nothing from
 * elsewhere. The screenshot is kept under the temp dir named in the test output (PRIVNET_KEEP_SCREENSHOT=DIR
 * copies it there) so that a person can look at it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "../../access/cli";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import { startTestServer, tempDir, type TestServer } from "../support/server";

function findChromium(): string | undefined {
  for (const b of ["chromium", "chromium-browser"]) {
    const r = spawnSync("sh", ["-c", `command -v ${b}`], { encoding: "utf8" });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return undefined;
}

const chromium = findChromium();

let t: TestServer;
let acc: AccessAccount;
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ simulate: true });
  acc = await buildAccessAccount(t.url, t.token);
  dir = tempDir("privnet-access-html-");
}, 60_000);

afterAll(async () => {
  await acc?.client.close();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function page(): Promise<string> {
  let html = "";
  const code = await run(["show", "--format", "html"], {
    stdout: (s) => (html += s),
    stderr: () => undefined,
    env: { PRIVNET_API_URL: t.url, PRIVNET_TOKEN: t.token },
  });
  expect(code).toBe(0);
  return html;
}

test("the page is self-contained: an inline picture with every group, peer and resource, and no token", async () => {
  const html = await page();
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).toContain("<svg");
  for (const name of ["group laptops (2)", "group db (1)", "network office", "laptop-1", "db-1", "files"])
    expect(html).toContain(name);
  // Arrows: laptop → db-1 (tcp, blue) and the resource; no script, nothing fetched from elsewhere.
  expect((html.match(/<path d="M/g) ?? []).length).toBeGreaterThanOrEqual(3);
  expect(html).not.toMatch(/<script|<link|src=|@import|url\(http/);
  expect(html).not.toContain(t.token);
});

// Skipped only when no chromium is installed (scripts/browser.sh installs it where it can): the reason is the name.
(chromium ? test : test.skip)(
  `a headless browser renders the page into a non-trivial screenshot${chromium ? "" : " (SKIPPED: no chromium on PATH; run bash scripts/browser.sh)"}`,
  async () => {
    const file = path.join(dir, "access.html");
    fs.writeFileSync(file, await page());
    const shot = path.join(dir, "access.png");
    const profile = path.join(dir, "profile");
    execFileSync(
      chromium as string,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--hide-scrollbars",
        "--window-size=1200,900",
        `--screenshot=${shot}`,
        `file://${file}`,
      ],
      { stdio: "ignore", timeout: 60_000 },
    );
    const png = fs.readFileSync(shot);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(1200); // width from the IHDR chunk
    // A blank page compresses to a few kB; the picture and table make it much larger.
    expect(png.length).toBeGreaterThan(30_000);
    const keep = process.env.PRIVNET_KEEP_SCREENSHOT;
    if (keep) {
      fs.mkdirSync(keep, { recursive: true });
      fs.copyFileSync(shot, path.join(keep, "access.png"));
    }
  },
  90_000,
);
