/**
 * The access guard: a Pulumi policy pack (`pulumi preview|up --policy-pack node_modules/pulumi-privnet/policy`)
 * that checks, inside the change, who will reach what (docs/access-guard.md). Its stack validation sees every
 * privnet resource of the stack, served by the resource plugin or by the dynamic providers, so it works for
 * programs in every language.
 *
 * - `access-tests` (mandatory by default): the access tests (`privnet-access test`'s file) hold on the account
 *   as it will be after the change. A failure names the test, the pairs and the policies responsible.
 * - `access-changes` (advisory): every gained and lost access line of the change, in `privnet-access diff`'s
 *   format, with totals.
 * - `no-broad-access` (advisory): a rule of the stack's policies whose sources or destinations are the built-in
 *   `All` group, or that opens all traffic (protocol all, no ports) to or from a group the config names as
 *   sensitive.
 *
 * Nothing is written to the account: the pack reads it with the readers of `privnet-access show`.
 */
import * as fs from "node:fs";
import { PolicyPack, type ReportViolation, type StackValidationArgs } from "@pulumi/policy";
import type * as Expectations from "../access/expectations";
import type { AccessTest } from "../access/expectations";
import type * as AnalysisModule from "./analysis";
import type { Analysis } from "./analysis";
import type * as Checks from "./checks";
import type { Violation } from "./checks";
import {
  CONFIG_SCHEMAS,
  GuardConfigError,
  levelOf,
  sensitiveGroupsOf,
  testsFileOf,
  type Level,
  type PolicyConfig,
  type PolicyName,
} from "./config";

/** The process's age when the pack's entry ran (node, the policy runner and @pulumi/policy loaded). */
const LOADED_AT_MS = Math.round(process.uptime() * 1000);

/** The pack's name, as `pulumi preview` lists it. */
export const PACK_NAME = "privnet-access-guard";

/**
 * The engine waits for the pack to listen and answer its first calls before it runs the program, so the pack's own
 * modules (the provider's schemas and readers, the network map, the HTTP client: about 300 ms of loading on a
 * loaded 2-core machine) are loaded a moment after it listens, while the engine starts the program; the reads of
 * a preview start then.
 */
const LOAD_AFTER_MS = 100;

interface Loaded {
  analysis: typeof AnalysisModule;
  checks: typeof Checks;
  expectations: typeof Expectations;
  guard: AnalysisModule.Guard;
}

let loaded: Loaded | undefined;

function load(): Loaded {
  if (!loaded) {
    const analysis: typeof AnalysisModule = require("./analysis");
    const checks: typeof Checks = require("./checks");
    const expectations: typeof Expectations = require("../access/expectations");
    const guard = new analysis.Guard({ ...analysis.defaultIo(), loadedAtMs: LOADED_AT_MS });
    loaded = { analysis, checks, expectations, guard };
    loaded.guard.prefetch();
  }
  return loaded;
}

setTimeout(load, LOAD_AFTER_MS).unref();

/** The run of the guard for a validation; a failure to read is reported once, by the first policy to meet it. */
async function analysisFor(
  args: StackValidationArgs,
  cfg: PolicyConfig,
  report: ReportViolation,
): Promise<Analysis | undefined> {
  const { analysis, guard } = load();
  try {
    return await guard.analyze(args.resources, cfg);
  } catch (err) {
    if (!(err instanceof analysis.SharedFailure)) throw err;
    if (!err.reported) {
      err.reported = true;
      report(`cannot check access: ${err.message}`);
    }
    return undefined;
  }
}

function reportAll(violations: readonly Violation[], report: ReportViolation): void {
  for (const v of violations) report(v.message, v.urn);
}

/** Why the access tests did not run; `stop`: whatever the policy's enforcement level (see {@link stopping}). */
interface NotRun {
  message: string;
  stop?: true;
}

/** The access tests, read and validated before anything else (errors name the entry and the field). */
function loadTests(cfg: PolicyConfig): { tests: AccessTest[]; file: string } | NotRun {
  const file = testsFileOf(cfg, process.env);
  if (!file)
    return {
      message:
        "no access tests file: set testsFile in the access-tests policy's config (--policy-pack-config) or " +
        "PRIVNET_ACCESS_TESTS, or disable the policy",
    };
  const notRun = (why: string): NotRun => ({
    message: `${why}; the access tests did not run, so this stops the change whatever the policy's enforcement level`,
    stop: true,
  });
  let text: string;
  try {
    text = fs.readFileSync(file.path, "utf8");
  } catch (err) {
    const where = file.relativeTo ? ` (a relative testsFile is taken from ${file.relativeTo.from})` : "";
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    return notRun(`access tests file ${file.path}: cannot read it (${code})${where}`);
  }
  const { parseTests, TestsFileError } = load().expectations;
  try {
    return { tests: parseTests(text, file.path), file: file.path };
  } catch (err) {
    if (err instanceof TestsFileError) return notRun(err.message);
    throw err;
  }
}

/**
 * A violation that stops the change even when the policy is advisory: a tests file that cannot be read (or does
 * not validate) means the policy did not look, which must never read as a pass. The policy SDK takes a
 * violation's own level when it is reported as an object (`@pulumi/policy`'s server: `message`, `urn`,
 * `enforcementLevel`; its type declares the string form only); the message is then taken as it is, so it starts
 * with the policy's description, as the string form's does.
 */
function stopping(report: ReportViolation, description: string, message: string): void {
  const violation = { message: `${description}\n${message}`, enforcementLevel: "mandatory" };
  (report as unknown as (v: typeof violation) => void)(violation);
}

/**
 * A policy of the pack. Its level comes from its variable (PRIVNET_POLICY_<POLICY>); a value that is none of the
 * levels does not stop the pack with a stack trace at start: the policy runs nothing and stops the change with one
 * line naming the variable and the values it takes (the user meant some level; none is guessed).
 */
function policy(name: PolicyName, description: string, check: PolicyCheck) {
  let enforcementLevel: Level;
  let misconfigured: string | undefined;
  try {
    enforcementLevel = levelOf(name, process.env);
  } catch (err) {
    if (!(err instanceof GuardConfigError)) throw err;
    enforcementLevel = "mandatory";
    misconfigured = `${err.message}; the policy did not run, so this stops the change`;
  }
  return {
    name,
    description,
    enforcementLevel,
    configSchema: CONFIG_SCHEMAS[name] as never,
    validateStack: async (args: StackValidationArgs, report: ReportViolation) =>
      misconfigured !== undefined
        ? stopping(report, description, misconfigured)
        : check(args, args.getConfig<PolicyConfig>(), report),
  };
}

const ACCESS_TESTS = "The access tests hold on the account after the change";

type PolicyCheck = (args: StackValidationArgs, cfg: PolicyConfig, report: ReportViolation) => Promise<void>;

new PolicyPack(PACK_NAME, {
  description:
    "Access guard for pulumi-privnet: access tests, gained and lost access, and broad rules, checked on the " +
    "account as it will be after the change",
  policies: [
    policy("access-tests", ACCESS_TESTS, async (args, cfg, report) => {
      const tests = loadTests(cfg);
      if ("message" in tests) {
        if (tests.stop) stopping(report, ACCESS_TESTS, tests.message);
        else report(tests.message);
        return;
      }
      const a = await analysisFor(args, cfg, report);
      if (!a) return;
      const { checks, expectations } = load();
      try {
        reportAll(checks.accessTestViolations(a, tests.tests, tests.file), report);
      } catch (err) {
        if (!(err instanceof expectations.TestsFileError)) throw err;
        report(err.message);
      }
    }),
    policy(
      "access-changes",
      "Every access the change grants or withdraws (privnet-access diff's lines)",
      async (args, cfg, report) => {
        const a = await analysisFor(args, cfg, report);
        if (a) reportAll(load().checks.accessChangeViolations(a), report);
      },
    ),
    policy(
      "no-broad-access",
      "No rule of the stack opens access to every peer, or all traffic to or from a sensitive group",
      async (args, cfg, report) => {
        const a = await analysisFor(args, cfg, report);
        if (!a) return;
        reportAll(
          load().checks.broadAccessViolations(a, {
            sensitiveGroups: sensitiveGroupsOf(cfg, process.env),
            ignorePolicies: cfg.ignorePolicies ?? [],
          }),
          report,
        );
      },
    ),
  ],
});
