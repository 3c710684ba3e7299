/**
 * Who a create is for, as the two transports learn it (model/hidden-inputs.ts), and the engine's notes of
 * interrupted creates of either hosting (provider/recovery.ts, parseNotes).
 */
import { kindOfType, ownerOfUrn, projectOfUrn } from "../../model/hidden-inputs";
import { parseNotes } from "../../provider/recovery";

describe("the owner a URN names", () => {
  test("a top-level resource and a child of a component: the stack's name and the project", () => {
    const urn = "urn:pulumi:dev::net::privnet:index:Group::g0";
    expect(ownerOfUrn(urn)).toEqual({ stack: "dev", urn });
    expect(projectOfUrn(urn)).toBe("net");
    const child = "urn:pulumi:prod.eu::net::my:Component$privnet:index:Policy::p::1";
    expect(ownerOfUrn(child)).toEqual({ stack: "prod.eu", urn: child });
    expect(projectOfUrn(child)).toBe("net");
  });

  test("anything else names no owner", () => {
    for (const urn of [
      undefined,
      "",
      "g0",
      "urn:pulumi:dev::net",
      "urn:other:dev::net::t::n",
      "urn:pulumi:::net::t::n",
    ])
      expect(ownerOfUrn(urn)).toBeUndefined();
  });
});

test("a privnet kind under either hosting, and nothing else", () => {
  expect(kindOfType("pulumi-nodejs:dynamic/privnet:Group")).toBe("Group");
  expect(kindOfType("privnet:index:SetupKey")).toBe("SetupKey");
  for (const t of [
    "privnet:index:",
    "pulumi-nodejs:dynamic/other:Group",
    "aws:s3:Bucket",
    "pulumi:providers:privnet",
  ])
    expect(kindOfType(t)).toBeUndefined();
});

test("the notes hold the pending creates of both hostings, by URN, and nothing of other packages", () => {
  const notes = parseNotes(
    JSON.stringify({
      deployment: {
        resources: [
          { urn: "urn:pulumi:dev::net::privnet:index:Group::a", type: "privnet:index:Group", id: "A" },
        ],
        pending_operations: [
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:dev::net::privnet:index:Group::b",
              type: "privnet:index:Group",
              id: "B",
              inputs: { name: "b" },
            },
          },
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:dev::net::pulumi-nodejs:dynamic/privnet:Policy::p",
              type: "pulumi-nodejs:dynamic/privnet:Policy",
              inputs: { name: "p" },
            },
          },
          {
            type: "creating",
            resource: { urn: "urn:pulumi:dev::net::aws:s3:Bucket::x", type: "aws:s3:Bucket", id: "X" },
          },
          {
            type: "updating",
            resource: {
              urn: "urn:pulumi:dev::net::privnet:index:Group::a",
              type: "privnet:index:Group",
              id: "A",
            },
          },
        ],
      },
    }),
  );
  expect([...notes.pending.entries()]).toEqual([
    [
      "urn:pulumi:dev::net::privnet:index:Group::b",
      [{ urn: "urn:pulumi:dev::net::privnet:index:Group::b", kind: "Group", id: "B", inputs: { name: "b" } }],
    ],
    [
      "urn:pulumi:dev::net::pulumi-nodejs:dynamic/privnet:Policy::p",
      [
        {
          urn: "urn:pulumi:dev::net::pulumi-nodejs:dynamic/privnet:Policy::p",
          kind: "Policy",
          inputs: { name: "p" },
        },
      ],
    ],
  ]);
  expect([...notes.held].sort()).toEqual(["A", "B", "X"]);
  expect([...notes.managed]).toEqual(["A"]);
});
