/**
 * privnet-server's ids grow with time as the service's do: the service orders by them where an order matters (a
 * caller in several groups is metered in the bucket of the lowest id), so ids made later must compare greater.
 */
import { newId } from "../../server/ids";

describe("newId", () => {
  test("20 base32hex characters, none repeated in many", () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-v]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("ids made later compare greater, within one second and across seconds", () => {
    const t = Date.UTC(2026, 10, 28, 12, 0, 0);
    const sameSecond = Array.from({ length: 1000 }, (_, i) => newId(t + (i % 1000)));
    expect([...sameSecond].sort()).toEqual(sameSecond);
    const later = newId(t + 1000);
    expect(later > sameSecond[sameSecond.length - 1]!).toBe(true);
    const muchLater = newId(t + 86_400_000);
    expect(muchLater > later).toBe(true);
  });
});
