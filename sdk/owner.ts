/**
 * The hidden input every resource class passes: which stack and which resource (URN) a create is for. The
 * dynamic provider's create gets only inputs, and it needs both to recognise an object that an interrupted run
 * of this stack created for this resource (see provider/recovery.ts). No secret is in it; the provider never
 * compares it and never sends it to the API.
 */
import * as pulumi from "@pulumi/pulumi";
import { OWNER_INPUT, TYPE_PREFIX, type Owner } from "../model/hidden-inputs";

/** `{ __privnetOwner: { stack, urn } }` for a resource of `kind` named `name`; `{}` outside a Pulumi program. */
export function ownerInput(
  name: string,
  kind: string,
  opts: pulumi.CustomResourceOptions | undefined,
): Record<string, pulumi.Input<Owner>> {
  let stack: string;
  try {
    stack = `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
  } catch {
    // No organization (an engine too old to pass one, or tests without mocks): nothing to recover with.
    return {};
  }
  if (!opts?.parent) {
    // The stack's own child: its URN is known now, as the SDK's createUrn spells it without a parent. A plain value
    // registers without the outputs and promises createUrn makes (each with a formatted stack trace), which were
    // a sixth of a resource's cost in the program (bench: profile of a 300-group preview).
    const urn = `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${TYPE_PREFIX}${kind}::${name}`;
    return { [OWNER_INPUT]: { stack, urn } };
  }
  const urn = pulumi.createUrn(name, `${TYPE_PREFIX}${kind}`, opts.parent);
  // Only the URN's value, not the parent as a dependency: depending on a parent component would mean waiting
  // for all its children, this resource among them.
  const value = new Promise<Owner>((resolve) => urn.apply((u) => resolve({ stack, urn: u })));
  return { [OWNER_INPUT]: pulumi.output(value) };
}
