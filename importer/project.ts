/**
 * The files of the generated Pulumi project around index.ts: Pulumi.yaml, package.json, tsconfig.json, README.md
 * (what was imported, how to install, the secrets to set, what was left out), and .npmrc where needed.
 *
 * package.json depends on pulumi-privnet the way the running copy was installed: the package must be a real
 * copy under the project's node_modules, never a symlink (README, "Using the provider"), so
 *   - installed from a registry: the same version (`0.1.0`);
 *   - installed from a tarball or a directory (`file:`): that source, and `.npmrc` with `install-links=true` so
 *     that `npm install` copies a directory instead of linking it;
 *   - running from a source checkout (not under node_modules): `file:<checkout>`, with the same `.npmrc`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Plan } from "./plan";

const PACKAGE = "pulumi-privnet";

export interface PackageSource {
  /** The dependency spec for package.json. */
  spec: string;
  /** Whether `npm install` needs `install-links=true` to copy it. */
  needsInstallLinks: boolean;
  /** How it was found, for the README. */
  note: string;
}

interface OwnPackage {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The running package's root directory: the nearest directory above this file with its package.json. */
export function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (
      fs.existsSync(file) &&
      (JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string }).name === PACKAGE
    )
      return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`privnet-import: cannot find the ${PACKAGE} package above ${from}`);
  }
}

export function ownPackage(root = packageRoot()): OwnPackage {
  return JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as OwnPackage;
}

/** How the running copy of the package was installed (see the file comment). */
export function packageSource(root = packageRoot()): PackageSource {
  const pkg = ownPackage(root);
  const real = fs.realpathSync(root);
  const parts = real.split(path.sep);
  const nm = parts.lastIndexOf("node_modules");
  if (nm < 0) {
    return {
      spec: `file:${real}`,
      needsInstallLinks: true,
      note: `a source checkout of ${pkg.name} (${real}): npm copies it (\`.npmrc\`: install-links=true)`,
    };
  }
  // node_modules/.package-lock.json records where npm got each installed package.
  const nodeModules = parts.slice(0, nm + 1).join(path.sep);
  const installedAs = parts.slice(nm + 1).join("/");
  let resolved: string | undefined;
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(nodeModules, ".package-lock.json"), "utf8")) as {
      packages?: Record<string, { resolved?: string }>;
    };
    resolved = lock.packages?.[`node_modules/${installedAs}`]?.resolved;
  } catch {
    resolved = undefined;
  }
  if (resolved?.startsWith("file:")) {
    const target = path.resolve(path.dirname(nodeModules), resolved.slice("file:".length));
    return {
      spec: `file:${target}`,
      needsInstallLinks: true,
      note: `installed from ${target}: npm copies it (\`.npmrc\`: install-links=true)`,
    };
  }
  return {
    spec: pkg.version,
    needsInstallLinks: false,
    note: `version ${pkg.version} from the npm registry`,
  };
}

export interface ProjectMeta {
  projectName: string;
  apiUrl: string;
  source: PackageSource;
  /** Versions the package itself uses. */
  pulumiVersion: string;
  typescriptVersion: string;
  typesNodeVersion: string;
}

/** A Pulumi project name from a directory name (letters, digits, `-`, `_`, `.`). */
export function projectNameFor(dir: string): string {
  const base = path
    .basename(path.resolve(dir))
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "");
  return base || "privnet-account";
}

export function projectMeta(outDir: string, apiUrl: string, root = packageRoot()): ProjectMeta {
  const pkg = ownPackage(root);
  return {
    projectName: projectNameFor(outDir),
    apiUrl,
    source: packageSource(root),
    pulumiVersion: pkg.dependencies?.["@pulumi/pulumi"] ?? "^3",
    typescriptVersion: pkg.devDependencies?.typescript ?? "~5.9.3",
    typesNodeVersion: pkg.devDependencies?.["@types/node"] ?? "^24.0.0",
  };
}

export function pulumiYaml(meta: ProjectMeta): string {
  return [
    `name: ${meta.projectName}`,
    `description: The account at ${meta.apiUrl}, imported by privnet-import`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    "",
  ].join("\n");
}

export function packageJson(meta: ProjectMeta): string {
  const pkg = {
    name: meta.projectName,
    private: true,
    main: "index.ts",
    dependencies: { "@pulumi/pulumi": meta.pulumiVersion, "pulumi-privnet": meta.source.spec },
    devDependencies: { "@types/node": meta.typesNodeVersion, typescript: meta.typescriptVersion },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function tsconfigJson(): string {
  const cfg = {
    compilerOptions: {
      target: "ES2022",
      module: "commonjs",
      moduleResolution: "node10",
      lib: ["ES2023"],
      types: ["node"],
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
    },
    files: ["index.ts"],
  };
  return `${JSON.stringify(cfg, null, 2)}\n`;
}

export function npmrc(): string {
  return "# Install pulumi-privnet as a copy, never a link (see README.md).\ninstall-links=true\n";
}

export function gitignore(): string {
  return "node_modules/\n";
}

/** README.md before formatting. */
export function readme(plan: Plan, meta: ProjectMeta): string {
  const count = plan.sections.reduce((n, s) => n + s.resources.length, 0);
  const lines: string[] = [
    `# ${meta.projectName}`,
    "",
    `The account at ${meta.apiUrl} as a Pulumi program, generated by \`privnet-import\`: ${count} objects, each ` +
      "adopted as it is. The first `pulumi up` reads every object and updates it to match `index.ts`, keeping " +
      "its id; nothing is created. The preview of that first run lists every resource as a create (adoption " +
      "is a create in Pulumi's terms); after it, `pulumi preview` shows no changes. From then on the " +
      "resources are managed like any other: change `index.ts` to change the account; `pulumi destroy` " +
      "deletes them.",
    "",
    "| Kind | Objects |",
    "| --- | ---: |",
    ...plan.sections.map((s) => `| ${s.def.kind} | ${s.resources.length} |`),
    "",
    "## Set up",
    "",
    "```sh",
    "npm install",
    "pulumi stack init <stack>",
    `pulumi config set privnet:apiUrl ${meta.apiUrl}`,
    "pulumi config set --secret privnet:token          # prompts for the token (or: < token-file)",
    ...plan.secrets.map((s) => `pulumi config set ${s.secret ? "--secret " : ""}${s.key}`),
    "pulumi preview",
    "pulumi up",
    "```",
    "",
    `\`pulumi-privnet\` comes from ${meta.source.note}. It must be installed as a copy in \`node_modules\`, ` +
      "not a symlink (`npm link`): a dynamic provider is stored in the state as a `require` of the installed " +
      "package, and a linked package would be copied into the state instead.",
    "",
  ];
  if (plan.secrets.length) {
    lines.push(
      "## Secrets to set",
      "",
      "The API never returns these values, so the program reads them from stack config " +
        "(`config.requireSecret`; `config.require` for a value that is no secret). Set each before `pulumi up` " +
        "(the command prompts for a secret's value; it is stored encrypted). The first `pulumi up` sends them " +
        "to the service.",
      "",
      "| Config key | Value |",
      "| --- | --- |",
      ...plan.secrets.map((s) => `| \`${s.key}\` | ${s.what}${s.secret ? "" : " (not secret)"} |`),
      "",
    );
  }
  const skipped = plan.summary.filter((s) => s.unavailable || s.notWritten.length);
  if (skipped.length) {
    lines.push("## Not in the program", "");
    for (const s of skipped) {
      if (s.unavailable) lines.push(`- ${s.kind}: ${s.unavailable}.`);
      for (const n of s.notWritten) lines.push(`- ${s.kind} (${n.count}): ${n.reason}.`);
    }
    lines.push("");
  }
  lines.push(
    "## Notes",
    "",
    "- Values equal to the service's defaults are left out; a value left out keeps (or restores) the default. " +
      "Account and DNS settings left out are not managed at all: they stay as they are.",
    "- A group's peers are not listed: membership comes from setup keys, users and the agents, and a group " +
      "that leaves `peers` out does not manage it. Network resources add themselves to their groups.",
    "- A setup key's lifetime (`expiresIn`) is write-only: the program states the remaining lifetime, which is " +
      "used only if a change ever replaces the key.",
  );
  if (plan.warnings.length) {
    lines.push("", "## Review", "", ...plan.warnings.map((w) => `- ${w}`));
  }
  return `${lines.join("\n")}\n`;
}
