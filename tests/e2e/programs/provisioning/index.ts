// SCIM provisioning integrations and notification channels, in two stages: stage 2 changes every resource in
// place (a token rotation included). With `adopt` (a JSON map of ids), the resources adopt those objects.
//
// Config: prefix (a SCIM connection prefix), oktaConnection (the Okta connection name), hookUrl and hookSecret
// (secrets: a webhook URL with a token in its path, and a header value), stage (1 or 2), adopt (optional).
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
const two = config.getNumber("stage") === 2;
const adopt = config.getObject<Record<string, string>>("adopt") ?? {};
const prefix = config.require("prefix");

const scim = new privnet.ScimIntegration("jumpcloud", {
  adoptId: adopt.scim,
  prefix: two ? `${prefix}-2` : prefix,
  provider: "jumpcloud",
  groupPrefixes: ["eng-", "ops-"],
  userGroupPrefixes: two ? ["staff"] : [],
  rotateToken: two ? "2026-06" : undefined,
});

const okta = new privnet.OktaScimIntegration("okta", {
  adoptId: adopt.okta,
  connectionName: config.require("oktaConnection"),
  enabled: !two,
  rotateToken: two ? "1" : undefined,
});

const email = new privnet.NotificationChannel("ops-email", {
  adoptId: adopt.email,
  type: "email",
  target: { emails: two ? ["ops@example.com", "oncall@example.com"] : ["ops@example.com"] },
  eventTypes: ["user.invite", "policy.update"],
  enabled: true,
});

const hook = new privnet.NotificationChannel("hook", {
  adoptId: adopt.hook,
  type: "webhook",
  target: {
    url: config.requireSecret("hookUrl"),
    headers: { "X-Hook-Secret": config.requireSecret("hookSecret") },
  },
  eventTypes: two ? ["peer.add", "group.add"] : ["peer.add"],
  enabled: true,
});

export const scimId = scim.id;
export const scimToken = scim.authToken;
export const oktaId = okta.id;
export const oktaToken = okta.authToken;
export const emailId = email.id;
export const hookId = hook.id;
