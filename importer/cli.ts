/**
 * `privnet-import --api-url URL [--token-file FILE] --out DIR [--kinds K,...] [--language typescript] [--force]
 *  [--peers] [--format typescript|pulumi-import]`: reads every manageable object of an account and writes a Pulumi
 *  project that adopts them all; with `--format pulumi-import` also the import file for `pulumi import --file`
 *  (any Pulumi language, through the resource plugin).
 *
 * Credentials: the token comes from --token-file or PRIVNET_TOKEN and is never printed or written. Progress goes
 * to stderr (objects per kind as each kind is read), the summary to stdout. Nothing is written unless everything
 * was read: the project is written to a temporary directory next to DIR and moved into place. Errors are one
 * line on stderr with exit code 1 (2 for bad arguments).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PrivnetClient } from "../client";
import { resolveCredentials } from "../model/credentials";
import { PROVIDERS } from "../provider/registry";
import { formatMarkdown, formatTypeScript, literalIds, renderImportFile, renderProgram } from "./emit";
import { buildPlan, kindsToRead, type Plan } from "./plan";
import { gitignore, npmrc, packageJson, projectMeta, pulumiYaml, readme, tsconfigJson } from "./project";
import { displayUrl, ImportError, readAccount, Reader, translate } from "./read";

export const USAGE = `usage: privnet-import --api-url URL [--token-file FILE] --out DIR [options]
  --api-url URL          the management API (default: PRIVNET_API_URL)
  --token-file FILE      a file holding the API token (default: the PRIVNET_TOKEN environment variable)
  --out DIR              where to write the Pulumi project (must not exist or be empty, unless --force)
  --kinds K,...          only these resource kinds (and the objects they refer to); default: every kind
  --language typescript  the program's language (only typescript)
  --force                write into a non-empty DIR, replacing the generated files (others are kept)
  --peers                manage enrolled peers as Peer resources (default: look up the peers referred to;
                         --kinds Peer implies it)
  --format F             typescript (default): the TypeScript project; pulumi-import: also import.json, the
                         file for \`pulumi import --file import.json\` in a project of any language`;

export interface Options {
  apiUrl: string;
  tokenFile?: string;
  out: string;
  kinds: string[];
  force: boolean;
  peers: boolean;
  /** `pulumi-import`: write the import file too. */
  format: "typescript" | "pulumi-import";
}

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** The kinds imported unless `--kinds` says otherwise: deprecated earlier names are the same objects as others. */
const ALL_KINDS = PROVIDERS.filter((p) => !p.spec.deprecatedBy).map((p) => p.spec.name);

/** A kind by its name (`Group`, `group`) or its module name (`dns-record`). */
export function kindByName(name: string): string | undefined {
  const n = name.trim().toLowerCase();
  return PROVIDERS.find((p) => p.spec.name.toLowerCase() === n || p.spec.file === n)?.spec.name;
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Options | "help" {
  let apiUrl = env.PRIVNET_API_URL;
  let tokenFile: string | undefined;
  let out: string | undefined;
  const kinds: string[] = [];
  let force = false;
  let peers = false;
  let format: Options["format"] = "typescript";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith("--")))
        throw new ImportError(`${flag} needs a value`, 2);
      return v;
    };
    switch (flag) {
      case "--api-url":
        apiUrl = value();
        break;
      case "--token-file":
        tokenFile = value();
        break;
      case "--out":
        out = value();
        break;
      case "--kinds":
        for (const k of value()
          .split(/[\s,]+/)
          .filter(Boolean)) {
          const kind = kindByName(k);
          if (!kind)
            throw new ImportError(
              `--kinds: unknown kind ${JSON.stringify(k)} (kinds: ${ALL_KINDS.join(", ")})`,
              2,
            );
          if (!kinds.includes(kind)) kinds.push(kind);
        }
        break;
      case "--language": {
        const lang = value();
        if (lang !== "typescript")
          throw new ImportError(`--language: only typescript is supported, not ${JSON.stringify(lang)}`, 2);
        break;
      }
      case "--format": {
        const f = value();
        if (f !== "typescript" && f !== "pulumi-import")
          throw new ImportError(`--format: typescript or pulumi-import, not ${JSON.stringify(f)}`, 2);
        format = f;
        break;
      }
      case "--force":
        force = true;
        break;
      case "--peers":
        peers = true;
        break;
      case "-h":
      case "--help":
        return "help";
      default:
        throw new ImportError(`unknown argument ${JSON.stringify(arg)}`, 2);
    }
  }
  if (!apiUrl) throw new ImportError("--api-url is required (or set PRIVNET_API_URL)", 2);
  if (!/^https?:\/\/[^/\s]+/.test(apiUrl))
    throw new ImportError(
      `--api-url must be an http(s) URL such as http://127.0.0.1:8080, got ${JSON.stringify(displayUrl(apiUrl))}`,
      2,
    );
  if (!out) throw new ImportError("--out DIR is required", 2);
  // Asking for peers by kind is asking to manage them.
  if (kinds.includes("Peer")) peers = true;
  if (peers && kinds.length && !kinds.includes("Peer")) kinds.unshift("Peer");
  return {
    apiUrl: apiUrl.replace(/\/+$/, ""),
    tokenFile,
    out,
    kinds: kinds.length ? kinds : [...ALL_KINDS],
    force,
    peers,
    format,
  };
}

export function readToken(opts: Pick<Options, "tokenFile">, env: NodeJS.ProcessEnv): string {
  if (opts.tokenFile !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(opts.tokenFile, "utf8");
    } catch (err) {
      throw new ImportError(
        `cannot read --token-file ${opts.tokenFile}: ${(err as NodeJS.ErrnoException).code ?? "error"}`,
      );
    }
    const token = text.trim();
    if (!token) throw new ImportError(`--token-file ${opts.tokenFile} is empty`);
    return token;
  }
  const token = env.PRIVNET_TOKEN?.trim();
  if (!token) throw new ImportError("no API token: pass --token-file FILE or set PRIVNET_TOKEN");
  return token;
}

/** Refuses an output directory that exists and holds anything, unless --force. */
export function checkOutDir(out: string, force: boolean): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(out);
  } catch {
    return; // does not exist: fine
  }
  if (!st.isDirectory()) throw new ImportError(`--out ${out} exists and is not a directory`);
  if (!force && fs.readdirSync(out).length > 0)
    throw new ImportError(
      `--out ${out} exists and is not empty; choose another directory, or pass --force to replace the generated files in it`,
    );
}

/** The files of the project, by name (with `pulumi-import`, the import file `import.json` too). */
export async function projectFiles(
  plan: Plan,
  out: string,
  apiUrl: string,
  format: Options["format"] = "typescript",
): Promise<Map<string, string>> {
  const shownUrl = displayUrl(apiUrl);
  const program = await formatTypeScript(renderProgram(plan, { apiUrl: shownUrl }));
  const literal = literalIds(program, plan);
  if (literal.length)
    throw new Error(
      `privnet-import: internal error: the program would hold literal ids of other objects (${literal.join(", ")})`,
    );
  const meta = projectMeta(out, shownUrl);
  const files = new Map<string, string>([
    ["Pulumi.yaml", pulumiYaml(meta)],
    ["package.json", packageJson(meta)],
    ["tsconfig.json", tsconfigJson()],
    ["index.ts", program],
    ["README.md", await formatMarkdown(readme(plan, meta))],
    [".gitignore", gitignore()],
  ]);
  if (meta.source.needsInstallLinks) files.set(".npmrc", npmrc());
  if (format === "pulumi-import") files.set("import.json", renderImportFile(plan));
  return files;
}

/**
 * Writes the files into a temporary directory next to `out`, then moves them into place: the directory itself
 * when `out` does not exist (or is empty), else file by file (--force). A failure leaves `out` as it was.
 */
export function writeProject(out: string, files: Map<string, string>, force: boolean): void {
  const target = path.resolve(out);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.privnet-import-`));
  try {
    for (const [name, text] of files) fs.writeFileSync(path.join(tmp, name), text);
    checkOutDir(target, force); // again: something may have appeared while the account was read
    if (fs.existsSync(target) && fs.readdirSync(target).length === 0) fs.rmdirSync(target);
    if (!fs.existsSync(target)) {
      fs.renameSync(tmp, target);
      return;
    }
    for (const name of files.keys()) fs.renameSync(path.join(tmp, name), path.join(target, name));
    fs.rmSync(tmp, { recursive: true, force: true });
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

/** The summary printed at the end. */
export function summaryText(plan: Plan, out: string, files: string[], requests: number, ms: number): string {
  const resources = plan.sections.reduce((n, s) => n + s.resources.length, 0);
  const lines = [
    `privnet-import: wrote ${out} (${files.join(", ")}): ${resources} resources, ${plan.lookups.length} lookups; ` +
      `${requests} API requests in ${(ms / 1000).toFixed(1)} s`,
    "Objects written per kind:",
  ];
  const width = Math.max(...plan.summary.map((s) => s.kind.length), 4) + 2;
  for (const s of plan.summary) {
    if (s.unavailable || (s.written === 0 && s.notWritten.length)) continue;
    const extra = s.referencedOnly
      ? ` (${s.referencedOnly} only because the kinds asked for refer to them)`
      : "";
    lines.push(`  ${pad(s.kind, width)}${String(s.written).padStart(5)}${extra}`);
  }
  lines.push(
    `Secrets to set (pulumi config set --secret KEY, without --secret where not secret; listed in README.md): ` +
      `${plan.secrets.length}`,
  );
  for (const s of plan.secrets) lines.push(`  ${s.key}: ${s.what}${s.secret ? "" : " (not secret)"}`);
  const skipped = plan.summary.filter((s) => s.unavailable || s.notWritten.length);
  lines.push(`Skipped: ${skipped.length ? "" : "none"}`);
  for (const s of skipped) {
    if (s.unavailable) lines.push(`  ${pad(s.kind, width)}    -  ${s.unavailable}`);
    for (const n of s.notWritten)
      lines.push(`  ${pad(s.kind, width)}${String(n.count).padStart(5)}  ${n.reason}`);
  }
  if (plan.warnings.length) {
    lines.push(`To review (also in README.md): ${plan.warnings.length}`);
    for (const w of plan.warnings) lines.push(`  ${w}`);
  }
  lines.push(`Next: cd ${out} && npm install, then the commands in README.md (set the secrets, pulumi up).`);
  if (files.includes("import.json"))
    lines.push(
      "Or, in a project of any language with the resource plugin: pulumi import --file import.json " +
        "(write-only inputs such as a setup key's expiresIn are left for you to add).",
    );
  return `${lines.join("\n")}\n`;
}

/** Runs the command; returns the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  const started = Date.now();
  let client: PrivnetClient | undefined;
  let probe: PrivnetClient | undefined;
  try {
    const opts = parseArgs(argv, io.env);
    if (opts === "help") {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    checkOutDir(opts.out, opts.force);
    const token = readToken(opts, io.env);
    let rateLimit;
    try {
      rateLimit = resolveCredentials(() => undefined, {
        PRIVNET_RATE_LIMIT: io.env.PRIVNET_RATE_LIMIT,
      }).rateLimit;
    } catch (err) {
      throw new ImportError((err as Error).message.replace(/^privnet: /, "PRIVNET_RATE_LIMIT: "), 2);
    }
    const limit = rateLimit !== undefined ? { rateLimit } : {};
    client = new PrivnetClient({ apiUrl: opts.apiUrl, token, ...limit });
    // The first request fails fast when the server cannot be reached (the client's default retries take ~15 s).
    probe = new PrivnetClient({ apiUrl: opts.apiUrl, token, maxRetries: 1, ...limit });
    const shown = displayUrl(opts.apiUrl);
    const reader = new Reader(client, shown);
    io.stderr(`privnet-import: reading the account at ${shown}\n`);
    const first = new Reader(probe, shown);
    await first.call("listAccounts").catch((err: unknown) => {
      throw translate(err, "listAccounts", shown);
    });
    const snapshot = await readAccount(reader, kindsToRead(opts.kinds), (line) =>
      io.stderr(`privnet-import: ${line}\n`),
    );
    const plan = buildPlan(snapshot, { kinds: opts.kinds, peers: opts.peers });
    const files = await projectFiles(plan, opts.out, opts.apiUrl, opts.format);
    writeProject(opts.out, files, opts.force);
    io.stdout(summaryText(plan, opts.out, [...files.keys()], reader.requests, Date.now() - started));
    return 0;
  } catch (err) {
    if (err instanceof ImportError) {
      const hint = err.exitCode === 2 ? " (privnet-import --help shows the usage)" : "";
      io.stderr(`privnet-import: ${err.message}${hint}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`privnet-import: ${message.replace(/^privnet(-import)?: /, "")}\n`);
    return 1;
  } finally {
    await probe?.close();
    await client?.close();
  }
}

export async function main(argv: string[]): Promise<void> {
  process.exitCode = await run(argv, {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
  });
}
