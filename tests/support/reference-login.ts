/**
 * Signs a regular user in to the reference server's embedded identity provider and returns an `Authorization`
 * header value (`Bearer <access token>`). The reference lets nobody mint a personal access token for a regular
 * user but the user, and a user of role `user` may not mint one at all; its identity provider serves the OAuth
 * device flow, which a program can complete with the user's password: ask for a device code, open the
 * verification page with the user code, post the login form, exchange the device code for tokens.
 *
 * Only the reference needs this (privnet-server lets the owner mint a token for any user). It talks to the
 * identity provider's public endpoints under `<url>/oauth2` as a browser would; nothing here knows the
 * server's code.
 */
const CLIENT_ID = "netbird-cli";

/** A cookie jar as small as the login needs: name=value pairs, sent back on every request. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      if (at > 0) this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** Follows redirects by hand so that the jar sees every Set-Cookie; returns the last response and its URL. */
async function go(jar: Jar, url: string, init: RequestInit = {}): Promise<{ res: Response; url: string }> {
  let current = url;
  let req: RequestInit = init;
  for (let hops = 0; hops < 10; hops++) {
    const res = await fetch(current, {
      ...req,
      redirect: "manual",
      headers: { ...(req.headers as Record<string, string>), Cookie: jar.header() },
    });
    jar.take(res);
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return { res, url: current };
    current = new URL(location, current).toString();
    // A redirect after a form post is followed with GET, as a browser does.
    req = {};
  }
  throw new Error(`reference login: too many redirects from ${url}`);
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

/** The `Authorization` header value for a regular user of the reference, from its email and password. */
export async function referenceLogin(serverUrl: string, email: string, password: string): Promise<string> {
  const issuer = `${serverUrl}/oauth2`;
  const codeRes = await fetch(
    `${issuer}/device/code`,
    form({ client_id: CLIENT_ID, scope: "openid email profile" }),
  );
  if (codeRes.status !== 200) throw new Error(`reference login: device code ${codeRes.status}`);
  const code = (await codeRes.json()) as { device_code: string; user_code: string };
  const jar = new Jar();
  const page = await go(jar, `${issuer}/device/auth/verify_code`, form({ user_code: code.user_code }));
  const html = await page.res.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
  if (!action) throw new Error(`reference login: no login form at ${page.url}`);
  await go(jar, new URL(action, page.url).toString(), form({ login: email, password }));
  const tokenRes = await fetch(
    `${issuer}/token`,
    form({
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: code.device_code,
      client_id: CLIENT_ID,
    }),
  );
  const tokens = (await tokenRes.json()) as { access_token?: string; error?: string };
  if (!tokens.access_token) throw new Error(`reference login: ${tokenRes.status} ${tokens.error ?? ""}`);
  return `Bearer ${tokens.access_token}`;
}
