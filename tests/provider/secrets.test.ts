/**
 * Every secret field of the spec is either a secret input (the sdk wraps it with pulumi.secret) or a
 * server-generated value listed in additionalSecretOutputs; write-only secrets are carried forward from state.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { providerFor } from "../support/provider";

type Row = [what: string, kind: string, property: string, how: "input" | "output"];

const SECRETS: Row[] = [
  ["setup key value", "SetupKey", "key", "output"],
  ["PAT plain token", "PersonalAccessToken", "plainToken", "output"],
  ["invite token", "UserInvite", "inviteToken", "output"],
  ["user initial password (embedded IdP)", "User", "password", "output"],
  ["identity provider client secret", "IdentityProvider", "clientSecret", "input"],
  ["EDR vendor-a api token", "EdrVendorA", "apiToken", "input"],
  ["EDR vendor-b secret", "EdrVendorB", "secret", "input"],
  ["EDR vendor-c client id", "EdrVendorC", "clientId", "input"],
  ["EDR vendor-c secret", "EdrVendorC", "secret", "input"],
  ["directory sync vendor-d service account key", "DirectorySyncVendorD", "serviceAccountKey", "input"],
  ["directory sync vendor-e client secret", "DirectorySyncVendorE", "clientSecret", "input"],
  ["event streaming credential config values", "EventStreamingIntegration", "config", "input"],
];

describe.each(SECRETS)("%s (%s.%s)", (_what, kind, property, how) => {
  const spec = providerFor(kind).spec;
  // The generated class, with prettier's line breaks as single spaces.
  const source = fs
    .readFileSync(path.resolve(__dirname, "../../sdk/resources", `${spec.file}.ts`), "utf8")
    .replace(/\s+/g, " ");

  if (how === "input") {
    test("is a secret input the sdk wraps", () => {
      expect(spec.secretInputs).toContain(property);
      expect(source).toContain(
        `${property}: args.${property} === undefined ? undefined : pulumi.secret(args.${property})`,
      );
    });
    test("is carried forward from state when the API does not return it", () => {
      const returned = Object.keys((spec.output as unknown as { shape?: object }).shape ?? {}).includes(
        property,
      );
      if (!returned)
        expect([...(spec.writeOnly ?? []), ...(spec.mergeOutputs ? [property] : [])]).toContain(property);
    });
  } else {
    test("is listed in additionalSecretOutputs", () => {
      expect(spec.secretOutputs).toContain(property);
      expect(source).toMatch(new RegExp(`withSecrets\\(opts, \\[[^\\]]*"${property}"`));
    });
    test("keeps the create-time value (reads return a masked form or nothing)", () => {
      expect(spec.createOnlyOutputs).toContain(property);
    });
  }
});
