/**
 * The acceptance tier's target: the live server named by PRIVNET_ACCEPTANCE_URL + PRIVNET_ACCEPTANCE_TOKEN (an
 * owner token), or else a `privnet-server` this setup starts (the package's own binary, as a user runs it). Then
 * it probes the target once for every test file: which resource kinds it serves (their collection answers, or
 * 404) and which peers are enrolled. Test files read the probe (see ./target.ts); the teardown prints the
 * summary of every kind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PrivnetClient } from "../../client";
import { probeTarget } from "./probe";

const repoRoot = path.resolve(__dirname, "..", "..");

declare global {
  var __privnetAcceptanceServer: ChildProcess | undefined;
}

async function startOwnServer(dir: string): Promise<{ url: string; token: string }> {
  const tokenFile = path.join(dir, "owner-token");
  const child = spawn(
    process.execPath,
    [
      path.join(repoRoot, "bin", "privnet-server"),
      "--port",
      "0",
      "--db",
      path.join(dir, "privnet.db"),
      "--bootstrap-token-file",
      tokenFile,
      "--cloud",
      "--embedded-idp",
      "--simulate",
      "--request-log",
      path.join(dir, "requests.log"),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  globalThis.__privnetAcceptanceServer = child;
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`privnet-server did not start: ${out}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`privnet-server exited with ${code}: ${out}`)));
  });
  return { url, token: fs.readFileSync(tokenFile, "utf8").trim() };
}

export default async function globalSetup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-acceptance-"));
  let url = process.env.PRIVNET_ACCEPTANCE_URL?.replace(/\/+$/, "");
  let token = process.env.PRIVNET_ACCEPTANCE_TOKEN;
  const external = Boolean(url);
  if (external && !token) throw new Error("PRIVNET_ACCEPTANCE_URL is set: set PRIVNET_ACCEPTANCE_TOKEN too");
  if (!external) ({ url, token } = await startOwnServer(dir));
  const client = new PrivnetClient({ apiUrl: url!, token: token!, rateLimit: false });
  try {
    const probe = await probeTarget(client, { url: url!, token: token!, external });
    const probeFile = path.join(dir, "probe.json");
    fs.writeFileSync(probeFile, JSON.stringify(probe, null, 2));
    // Test workers start after this and inherit the environment.
    process.env.PRIVNET_ACCEPTANCE_URL = url;
    process.env.PRIVNET_ACCEPTANCE_TOKEN = token;
    process.env.PRIVNET_ACCEPTANCE_PROBE = probeFile;
    process.env.PRIVNET_ACCEPTANCE_RESULTS = path.join(dir, "results.jsonl");
    process.env.PRIVNET_ACCEPTANCE_DIR = dir;
    if (!external) process.env.PRIVNET_ACCEPTANCE_OWN = "1";
    process.stdout.write(
      `\nacceptance target: ${probe.label} (${probe.served.length} kinds served, ` +
        `${probe.notServed.length} not served, ${probe.peers.length} enrolled peers)\n`,
    );
  } finally {
    await client.close();
  }
}
