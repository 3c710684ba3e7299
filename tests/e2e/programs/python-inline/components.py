"""The three components through the resource plugin and the generated SDK (pulumi_privnet), as an Automation API
inline program: the stages of ../components/scenario.json on one stack, one JSON line per step (`STEP {...}`).

Steps: `first-preview` (the steps of a preview of a new stack, with each resource's parent), `up`, `preview` and
`refresh` (no change, no drift), then per later stage its preview's operations and its update's, `bad` (a preview
with a port out of range, which must fail naming the component, the entry and the field), `destroy`.

Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project),
PRIVNET_TEST_PREFIX (names made unique on a shared server; default `py`).
"""
import copy
import json
import os
import re
import sys

import pulumi
import pulumi.automation as auto
import pulumi_privnet as privnet

SCENARIO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "components", "scenario.json")
PREFIX = os.environ.get("PRIVNET_TEST_PREFIX", "py")


def snake(name: str) -> str:
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
    return s + "_" if s == "from" else s


# The Args class of each list's or object's entries, by component and input.
ENTRY_ARGS = {
    ("Segment", "setupKeyOptions"): privnet.SegmentSetupKeyOptionsArgs,
    ("Segment", "allow"): privnet.SegmentAllowArgs,
    ("NetworkBundle", "routers"): privnet.NetworkBundleRouterArgs,
    ("NetworkBundle", "resources"): privnet.NetworkBundleResourceArgs,
    ("DnsZoneBundle", "records"): privnet.DnsZoneBundleRecordArgs,
}
CLASSES = {"Segment": privnet.Segment, "NetworkBundle": privnet.NetworkBundle, "DnsZoneBundle": privnet.DnsZoneBundle}


def fill(value, groups):
    """The scenario's value with ${app} and ${ops} as the groups' ids and ${prefix} as the prefix."""
    if isinstance(value, str):
        if value in ("${app}", "${ops}"):
            return groups[value[2:-1]].id
        return value.replace("${prefix}", PREFIX)
    if isinstance(value, list):
        return [fill(v, groups) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, groups) for k, v in value.items()}
    return value


def kwargs(kind: str, args: dict, groups) -> dict:
    out = {}
    for key, value in args.items():
        entry = ENTRY_ARGS.get((kind, key))
        value = fill(value, groups)
        if entry and isinstance(value, list):
            value = [entry(**{snake(k): v for k, v in e.items()}) for e in value]
        elif entry:
            value = entry(**{snake(k): v for k, v in value.items()})
        out[snake(key)] = value
    return out


def program_for(components: dict):
    def program() -> None:
        groups = {
            "app": privnet.Group("app", name=f"{PREFIX}-app"),
            "ops": privnet.Group("ops", name=f"{PREFIX}-ops"),
        }
        made = {name: CLASSES[c["type"]](name, **kwargs(c["type"], c["args"], groups)) for name, c in components.items()}
        pulumi.export("setupKey", made["db"].setup_key)
        pulumi.export("groupId", made["db"].group_id)
        pulumi.export("policyIds", made["db"].policy_ids)
        pulumi.export("networkId", made["office"].network_id)
        pulumi.export("routerIds", made["office"].router_ids)
        pulumi.export("resourceIds", made["office"].resource_ids)
        pulumi.export("zoneId", made["zone"].zone_id)
        pulumi.export("recordIds", made["zone"].record_ids)
        pulumi.export("appGroupId", groups["app"].id)
        pulumi.export("opsGroupId", groups["ops"].id)

    return program


def step(name: str, **data) -> None:
    print("STEP " + json.dumps({"step": name, **data}), flush=True)


def summary(result) -> dict:
    changes = result.summary.resource_changes if hasattr(result, "summary") else result.change_summary
    return {k: v for k, v in (changes or {}).items()}


class Steps:
    """The engine's resource steps of one operation: `op type::name`, and each resource's parent."""

    def __init__(self) -> None:
        self.ops: list = []
        self.parents: dict = {}

    def __call__(self, event) -> None:
        pre = event.resource_pre_event
        if not pre:
            return
        meta = pre.metadata
        urn = meta.urn
        short = urn.split("::")[-2].split("$")[-1] + "::" + urn.split("::")[-1]
        op = getattr(meta.op, "value", meta.op)
        if op != "same":
            self.ops.append(f"{op} {short}")
        state = meta.new or meta.old
        if state is not None:
            self.parents[short] = (state.parent or "").split("::")[-1]


def main() -> None:
    url = os.environ["PRIVNET_TEST_URL"]
    token = os.environ["PRIVNET_TEST_TOKEN"]
    work = os.environ["PRIVNET_TEST_WORK"]
    with open(SCENARIO, encoding="utf-8") as f:
        stages = json.load(f)["stages"]

    def stack_for(components: dict) -> auto.Stack:
        stack = auto.create_or_select_stack(
            stack_name="components",
            project_name="privnet-python-components",
            program=program_for(components),
            opts=auto.LocalWorkspaceOptions(
                work_dir=work,
                secrets_provider="passphrase",
                project_settings=auto.ProjectSettings(name="privnet-python-components", runtime="python"),
            ),
        )
        stack.set_config("privnet:apiUrl", auto.ConfigValue(value=url))
        stack.set_config("privnet:token", auto.ConfigValue(value=token, secret=True))
        return stack

    try:
        base = stages[0]["components"]
        stack = stack_for(base)
        first = Steps()
        preview = stack.preview(on_event=first)
        step("first-preview", changes=summary(preview), ops=first.ops, parents=first.parents)
        up = stack.up()
        outputs = {k: {"secret": v.secret, "value": v.value} for k, v in up.outputs.items()}
        step("up", changes=summary(up), outputs=outputs)
        step("preview", changes=summary(stack.preview()))
        step("refresh", changes=summary(stack.preview_refresh()))

        for stage in stages[1:]:
            stack = stack_for(stage["components"])
            seen = Steps()
            preview = stack.preview(on_event=seen)
            applied = Steps()
            up = stack.up(on_event=applied)
            step(
                stage["stage"],
                previewChanges=summary(preview),
                previewOps=seen.ops,
                changes=summary(up),
                ops=applied.ops,
                values={k: v.value for k, v in up.outputs.items() if not v.secret},
            )
            step(f"after-{stage['stage']}", changes=summary(stack.preview()))

        bad = copy.deepcopy(stages[-1]["components"])
        bad["db"]["args"]["allow"][0]["ports"] = ["5432", "99999"]
        stack = stack_for(bad)
        try:
            stack.preview()
            step("bad", failed=False)
        except auto.errors.CommandError as err:
            step("bad", failed=True, message=str(err))

        stack = stack_for(stages[-1]["components"])
        destroy = stack.destroy()
        step("destroy", changes=summary(destroy))
    except Exception:
        # Leave nothing behind on a shared server: destroy what the life made so far, then report the failure.
        try:
            stack_for(stages[-1]["components"]).destroy()
        except Exception:  # the failure reported is the first one
            pass
        raise


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
