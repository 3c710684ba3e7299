/** A new database gets the account, its owner user, the built-in `All` group and an owner PAT. */
import { defaultAccountSettings } from "../api/account";
import { iso } from "./clock";
import type { Clock } from "./clock";
import { hashSecret, newId, newPersonalAccessToken } from "./ids";
import type { AccountDoc, GroupDoc, TokenDoc, UserDoc } from "./model";
import type { Store } from "./store";

/** Account settings of a new account (the contract's defaults; the AccountSettings resource restores these). */
export function defaultSettings(embeddedIdp: boolean): Record<string, unknown> {
  return defaultAccountSettings(embeddedIdp);
}

export const OWNER_EMAIL = "owner@privnet.local";
/** Lifetime of the bootstrap owner token. */
const OWNER_TOKEN_DAYS = 365;

/** Seeds an empty database; returns the owner PAT's plain value (never stored). */
export function bootstrap(store: Store, clock: Clock, embeddedIdp: boolean): string {
  const now = clock.now();
  const ownerId = newId();
  const plain = newPersonalAccessToken();
  store.tx((tx) => {
    const account: AccountDoc = {
      id: newId(),
      domain: "privnet.local",
      domain_category: "private",
      created_at: iso(now),
      created_by: ownerId,
      settings: defaultSettings(embeddedIdp),
      onboarding: { signup_form_pending: false, onboarding_flow_pending: false },
      dns: { disabled_management_groups: [] },
    };
    tx.put("account", account);
    const owner: UserDoc = {
      id: ownerId,
      email: OWNER_EMAIL,
      name: "Owner",
      role: "owner",
      status: "active",
      last_login: iso(now),
      auto_groups: [],
      is_service_user: false,
      is_blocked: false,
      pending_approval: false,
      issued: "api",
      idp_id: ownerId,
      created_at: iso(now),
    };
    tx.put("user", owner);
    const all: GroupDoc = {
      id: newId(),
      name: "All",
      issued: "api",
      peers: [],
      resources: [],
      builtin: true,
    };
    tx.put("group", all);
    const token: TokenDoc = {
      id: newId(),
      parent: ownerId,
      name: "bootstrap owner token",
      hashed_token: hashSecret(plain),
      expiration_date: iso(now + OWNER_TOKEN_DAYS * 86400_000),
      created_by: ownerId,
      created_at: iso(now),
      last_used: null,
    };
    tx.put("token", token);
    tx.audit({
      timestamp: iso(now),
      activity: "Account created",
      activity_code: "account.create",
      initiator_id: ownerId,
      target_id: account.id,
      meta: {},
    });
  });
  return plain;
}
