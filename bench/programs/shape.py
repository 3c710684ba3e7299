"""The bench's resource shapes (graph-shape.js) as a Python Automation API inline program, through the resource
plugin and the generated SDK (pulumi_privnet). bench/peer.ts runs it once per command:

    python shape.py up|preview|refresh|destroy

with the CLI and the plugin on PATH, a file backend and a passphrase in the environment, and the stack's
directory in PRIVNET_BENCH_WORK, which holds bench-input.json ({ count, suffix, shape }) and the stack config
(PRIVNET_BENCH_URL and PRIVNET_BENCH_TOKEN are set on the stack's first use). It prints one line,
`RESULT {"ms": ..., "changes": {...}}`: the wall time of the Automation API call alone (the engine, the plugin
and this program's registrations; not Python's own start-up), and the engine's change summary.
"""
import json
import os
import sys
import time

import pulumi_privnet as privnet
import pulumi.automation as auto


def build(count: int, suffix: str, shape: str) -> None:
    if shape == "groups":
        for i in range(count):
            privnet.Group(f"g{i}", name=f"g-{suffix}-{i}")
        return
    n_policies = count // 4
    n_groups = count - n_policies if shape == "policies" else count // 2
    n_keys = count - n_groups - n_policies
    groups = [privnet.Group(f"g{i}", name=f"g-{suffix}-{i}") for i in range(n_groups)]
    for i in range(n_policies):
        privnet.Policy(
            f"p{i}",
            name=f"p-{suffix}-{i}",
            enabled=True,
            rules=[
                privnet.PolicyRuleArgs(
                    name="ssh",
                    enabled=True,
                    action="accept",
                    bidirectional=False,
                    protocol="tcp",
                    ports=["22"],
                    sources=[groups[(2 * i) % n_groups].id],
                    destinations=[groups[(2 * i + 1) % n_groups].id],
                )
            ],
        )
    for i in range(n_keys):
        privnet.SetupKey(
            f"k{i}",
            name=f"k-{suffix}-{i}",
            type="reusable",
            expires_in=86400,
            auto_groups=[groups[i % n_groups].id],
            usage_limit=0,
            ephemeral=False,
        )


def main() -> None:
    command = sys.argv[1]
    work = os.environ["PRIVNET_BENCH_WORK"]
    with open(os.path.join(work, "bench-input.json"), encoding="utf-8") as f:
        spec = json.load(f)
    stack = auto.create_or_select_stack(
        stack_name="bench",
        project_name="bench-python",
        program=lambda: build(spec["count"], spec["suffix"], spec["shape"]),
        opts=auto.LocalWorkspaceOptions(
            work_dir=work,
            secrets_provider="passphrase",
            project_settings=auto.ProjectSettings(name="bench-python", runtime="python"),
        ),
    )
    if "PRIVNET_BENCH_URL" in os.environ:
        stack.set_config("privnet:apiUrl", auto.ConfigValue(value=os.environ["PRIVNET_BENCH_URL"]))
        stack.set_config("privnet:token", auto.ConfigValue(value=os.environ["PRIVNET_BENCH_TOKEN"], secret=True))
    t0 = time.monotonic()
    if command == "up":
        result = stack.up()
    elif command == "preview":
        result = stack.preview()
    elif command == "refresh":
        result = stack.refresh()
    elif command == "destroy":
        result = stack.destroy()
    else:
        raise SystemExit(f"unknown command {command}")
    ms = (time.monotonic() - t0) * 1000
    changes = result.summary.resource_changes if hasattr(result, "summary") else result.change_summary
    print("RESULT " + json.dumps({"ms": ms, "changes": dict(changes or {})}), flush=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # bench/peer.ts prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
