/**
 * privnet-import against a real local server (in this process): bad input gives one clear line and a non-zero
 * exit, with nothing written; kinds a self-hosted server does not have are skipped with the reason; --force;
 * the token never appears in what the command prints or writes.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PrivnetClient } from "../../client";
import { PROVIDERS } from "../../provider/registry";
import { parseArgs, run, type Io } from "../../importer/cli";
import { packageSource } from "../../importer/project";
import { addUserWithToken } from "../support/fixtures";
import { ensureBuilt, repoRoot } from "../support/package-copy";
import { startTestServer, type TestServer } from "../support/server";

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function importer(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  let stdout = "";
  let stderr = "";
  const io: Io = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

/** stderr without the progress lines (`reading ...`, `<Kind>: <count>`): what the command says went wrong. */
function errorLines(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((l) => l !== "")
    .filter((l) => !/^privnet-import: (reading the account|[A-Za-z]+: (\d+|skipped))/.test(l));
}

let server: TestServer;
let work: string;
let tokenFile: string;

beforeAll(async () => {
  server = await startTestServer({ embeddedIdp: true }); // self-hosted: no --cloud
  const client = new PrivnetClient({ apiUrl: server.url, token: server.token, rateLimit: false });
  try {
    const eng = await client.call<{ id: string }>("createGroup", { body: { name: "engineering" } });
    await client.call("createPolicy", {
      body: {
        name: "eng",
        enabled: true,
        rules: [
          {
            name: "all",
            enabled: true,
            action: "accept",
            bidirectional: true,
            protocol: "all",
            sources: [eng.id],
            destinations: [eng.id],
          },
        ],
      },
    });
  } finally {
    await client.close();
  }
  work = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-import-cli-"));
  tokenFile = path.join(work, "token");
  fs.writeFileSync(tokenFile, `${server.token}\n`, { mode: 0o600 });
});

afterAll(async () => {
  await server?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Entries of `work` other than the token file: the command must leave nothing (no temp dirs either). */
function leftovers(): string[] {
  return fs.readdirSync(work).filter((e) => e !== "token" && !e.startsWith("keep-"));
}

function expectOneLineError(r: Result, code: number, pattern: RegExp): void {
  expect(r.code).toBe(code);
  const lines = errorLines(r.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^privnet-import: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stdout).toBe("");
  expect(`${r.stdout}${r.stderr}`).not.toContain(server.token);
}

describe("arguments", () => {
  it("kinds by name or module name, comma or space separated; --kinds Peer implies --peers", () => {
    const o = parseArgs(
      ["--api-url=http://h:1/", "--out=x", "--kinds", "group,dns-record Policy", "--kinds", "Group"],
      {},
    );
    expect(o).toMatchObject({
      apiUrl: "http://h:1",
      out: "x",
      kinds: ["Group", "DnsRecord", "Policy"],
      peers: false,
    });
    expect(parseArgs(["--api-url", "http://h", "--out", "x", "--kinds", "peer"], {})).toMatchObject({
      kinds: ["Peer"],
      peers: true,
    });
    expect(
      parseArgs(["--out", "x", "--peers", "--kinds", "Route"], { PRIVNET_API_URL: "http://env" }),
    ).toMatchObject({ apiUrl: "http://env", kinds: ["Peer", "Route"], peers: true });
    expect(parseArgs(["--api-url", "http://h", "--out", "x"], {})).toMatchObject({
      // The deprecated earlier names are the same objects as their new kinds: not imported twice.
      kinds: PROVIDERS.filter((p) => !p.spec.deprecatedBy).map((p) => p.spec.name),
    });
    expect(() => parseArgs(["--api-url", "--out", "x"], {})).toThrow(/--api-url needs a value/);
  });
});

describe("bad input", () => {
  it("arguments: missing --api-url, missing --out, an unknown kind, another language", async () => {
    const out = path.join(work, "out");
    expectOneLineError(await importer(["--out", out]), 2, /--api-url is required/);
    expectOneLineError(await importer(["--api-url", server.url]), 2, /--out DIR is required/);
    expectOneLineError(
      await importer(["--api-url", server.url, "--out", out, "--kinds", "Group,Gadget"]),
      2,
      /--kinds: unknown kind "Gadget" \(kinds: Group, Policy,/,
    );
    expectOneLineError(
      await importer(["--api-url", server.url, "--out", out, "--language", "python"]),
      2,
      /--language: only typescript is supported/,
    );
    expectOneLineError(await importer(["--api-url", "ftp://x", "--out", out]), 2, /must be an http\(s\) URL/);
    expect(leftovers()).toEqual([]);
  });

  it("no token, or a token file that cannot be read", async () => {
    const out = path.join(work, "out");
    expectOneLineError(
      await importer(["--api-url", server.url, "--out", out]),
      1,
      /no API token: pass --token-file FILE or set PRIVNET_TOKEN/,
    );
    expectOneLineError(
      await importer(["--api-url", server.url, "--out", out, "--token-file", path.join(work, "missing")]),
      1,
      /cannot read --token-file .*missing: ENOENT/,
    );
    expect(leftovers()).toEqual([]);
  });

  it("an unreachable URL fails fast", async () => {
    // Port 1 (tcpmux): privileged and unused, so nothing else on the machine can be listening there.
    const url = "http://127.0.0.1:1";
    const t = Date.now();
    const r = await importer(["--api-url", url, "--token-file", tokenFile, "--out", path.join(work, "out")]);
    expectOneLineError(r, 1, new RegExp(`cannot reach the management API at ${url}: .*ECONNREFUSED`));
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(leftovers()).toEqual([]);
  });

  it("a bad token: 401, and the token is not shown", async () => {
    const bad = "pnp_thisTokenIsNotKnownToTheServer000000";
    const r = await importer(["--api-url", server.url, "--out", path.join(work, "out")], {
      PRIVNET_TOKEN: bad,
    });
    expectOneLineError(r, 1, /rejected the token \(401: .*\); check --token-file or PRIVNET_TOKEN/);
    expect(r.stderr).not.toContain(bad);
    expect(leftovers()).toEqual([]);
  });

  it("a kind the token may not read: 403 names it; leaving it out with --kinds works", async () => {
    const { token } = addUserWithToken(server, "network_admin");
    const out = path.join(work, "out");
    const r = await importer(["--api-url", server.url, "--out", out], { PRIVNET_TOKEN: token });
    expectOneLineError(
      r,
      1,
      /the token may not read (identity-providers|edr|directory-sync|event-streaming|tokens|invites) \(GET \/api\/\S+ answered 403: .*\); .*--kinds/,
    );
    expect(r.stderr).not.toContain(token);
    expect(leftovers()).toEqual([]);
    const ok = await importer(["--api-url", server.url, "--out", out, "--kinds", "Group,Policy"], {
      PRIVNET_TOKEN: token,
    });
    expect(ok.code).toBe(0);
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toContain("new privnet.Policy(");
    fs.rmSync(out, { recursive: true });
  });

  it("an output directory that is not empty, unless --force (which keeps the files it does not write)", async () => {
    const out = path.join(work, "keep-out");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "Pulumi.dev.yaml"), "config: {}\n");
    fs.writeFileSync(path.join(out, "index.ts"), "// mine\n");
    const r = await importer(["--api-url", server.url, "--token-file", tokenFile, "--out", out]);
    expectOneLineError(r, 1, /--out .*keep-out exists and is not empty; .*--force/);
    expect(fs.readdirSync(out).sort()).toEqual(["Pulumi.dev.yaml", "index.ts"]);
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toBe("// mine\n");
    expect(leftovers()).toEqual([]);

    const forced = await importer([
      "--api-url",
      server.url,
      "--token-file",
      tokenFile,
      "--out",
      out,
      "--force",
    ]);
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(path.join(out, "Pulumi.dev.yaml"), "utf8")).toBe("config: {}\n");
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toContain("new privnet.Group(");
    expect(leftovers()).toEqual([]);
    const file = path.join(work, "keep-file");
    fs.writeFileSync(file, "");
    expectOneLineError(
      await importer(["--api-url", server.url, "--token-file", tokenFile, "--out", file]),
      1,
      /exists and is not a directory/,
    );
  });
});

describe("a self-hosted server", () => {
  it("writes the project; cloud-only kinds are skipped with the reason; the token is nowhere", async () => {
    const out = path.join(work, "account");
    const r = await importer(["--api-url", server.url, "--out", out], { PRIVNET_TOKEN: server.token });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^privnet-import: Group: 2$/m);
    expect(r.stderr).toMatch(/^privnet-import: IngressPeer: skipped \(cloud-only: this server answered 404/m);
    expect(r.stdout).toMatch(/^ {2}IngressPeer +- {2}cloud-only: this server answered 404/m);
    expect(r.stdout).toMatch(/^ {2}IngressPortAllocation +- {2}cloud-only/m);
    expect(r.stdout).toMatch(/^ {2}Group +1$/m);
    expect(r.stdout).toMatch(/^ {2}Group +1 {2}the built-in All group/m);
    expect(r.stdout).toMatch(/^ {2}User +1 {2}the account owner/m);
    expect(fs.readdirSync(out).sort()).toEqual(
      [
        ".gitignore",
        ".npmrc",
        "Pulumi.yaml",
        "README.md",
        "index.ts",
        "package.json",
        "tsconfig.json",
      ].sort(),
    );
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    expect(readme).toContain("IngressPeer: cloud-only: this server answered 404");
    for (const name of fs.readdirSync(out))
      expect([name, fs.readFileSync(path.join(out, name), "utf8").includes(server.token)]).toEqual([
        name,
        false,
      ]);
    expect(`${r.stdout}${r.stderr}`).not.toContain(server.token);
    const pkg = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    // Run from this checkout: the package is a file: dependency that npm must copy (.npmrc install-links).
    expect(pkg.dependencies["pulumi-privnet"]).toBe(`file:${fs.realpathSync(repoRoot)}`);
    expect(fs.readFileSync(path.join(out, ".npmrc"), "utf8")).toMatch(/^install-links=true$/m);
    fs.rmSync(out, { recursive: true });
  });

  it("the installed command: exit codes and --help", async () => {
    ensureBuilt();
    const bin = path.join(repoRoot, "bin", "privnet-import");
    const exec = (args: string[]) =>
      new Promise<Result>((resolve) =>
        execFile(
          process.execPath,
          [bin, ...args],
          { env: { PATH: process.env.PATH } },
          (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        ),
      );
    const help = await exec(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: privnet-import --api-url URL/);
    const bad = await exec(["--api-url", server.url, "--out", path.join(work, "out")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("privnet-import: no API token: pass --token-file FILE or set PRIVNET_TOKEN\n");
    const usage = await exec(["--bogus"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim().split("\n")).toHaveLength(1);
    expect(leftovers()).toEqual([]);
  }, 30_000); // three starts of the installed command: seconds each on a loaded machine
});

describe("how package.json depends on pulumi-privnet: as the running copy was installed", () => {
  /** A project with the package installed under node_modules, and npm's record of where it came from. */
  function installed(resolved: string | undefined): string {
    const project = fs.mkdtempSync(path.join(work, "keep-pkg-"));
    const pkg = path.join(project, "node_modules", "pulumi-privnet");
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "pulumi-privnet", version: "1.2.3" }),
    );
    if (resolved !== undefined)
      fs.writeFileSync(
        path.join(project, "node_modules", ".package-lock.json"),
        JSON.stringify({ packages: { "node_modules/pulumi-privnet": { version: "1.2.3", resolved } } }),
      );
    return pkg;
  }

  it("from the registry: that version", () => {
    expect(
      packageSource(installed("https://registry.npmjs.org/pulumi-privnet/-/pulumi-privnet-1.2.3.tgz")),
    ).toMatchObject({
      spec: "1.2.3",
      needsInstallLinks: false,
    });
    expect(packageSource(installed(undefined))).toMatchObject({ spec: "1.2.3", needsInstallLinks: false });
  });

  it("from a tarball or a directory: that source, copied by npm (install-links)", () => {
    const pkg = installed("file:../pulumi-privnet-1.2.3.tgz");
    const project = path.dirname(path.dirname(pkg));
    expect(packageSource(pkg)).toMatchObject({
      spec: `file:${path.join(path.dirname(project), "pulumi-privnet-1.2.3.tgz")}`,
      needsInstallLinks: true,
    });
  });

  it("linked (npm link) or run from a checkout: the real directory, copied by npm (install-links)", () => {
    const real = path.join(work, "keep-checkout");
    fs.mkdirSync(real, { recursive: true });
    fs.writeFileSync(
      path.join(real, "package.json"),
      JSON.stringify({ name: "pulumi-privnet", version: "1.2.3" }),
    );
    const pkg = installed(undefined);
    fs.rmSync(pkg, { recursive: true });
    fs.symlinkSync(real, pkg, "dir");
    expect(packageSource(pkg)).toMatchObject({
      spec: `file:${fs.realpathSync(real)}`,
      needsInstallLinks: true,
    });
  });
});
