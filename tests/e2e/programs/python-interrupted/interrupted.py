"""A Python Automation API inline program, through the resource plugin, that a killed `pulumi up` leaves half done.

Groups (unique names) and policies (names may repeat: policy i and i + policies/2 are identical; their rules use
the first groups only, so policies are created while later groups still are). The test
(tests/e2e/interrupted-plugin.test.ts) runs it once with `up` and kills it (the process, the CLI, the plugin) with
SIGKILL mid-run, then with `recover` (`pulumi cancel`, then `pulumi up`), `settle` (`pulumi refresh
--clear-pending-creates`, then a preview) and `destroy`. Each mode prints one
`STEP {...}` line; the engine's own output (its warnings) goes to stdout too.

Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project),
PRIVNET_TEST_PREFIX, PRIVNET_TEST_GROUPS, PRIVNET_TEST_POLICIES.
"""
import json
import os
import sys

import pulumi.automation as auto
import pulumi_privnet as privnet


def program() -> None:
    prefix = os.environ["PRIVNET_TEST_PREFIX"]
    group_count = int(os.environ["PRIVNET_TEST_GROUPS"])
    policy_count = int(os.environ["PRIVNET_TEST_POLICIES"])
    groups = [privnet.Group(f"g{i}", name=f"{prefix}-g{i}") for i in range(group_count)]
    ruled = min(10, group_count)
    half = max(1, (policy_count + 1) // 2)
    for i in range(policy_count):
        n = i % half
        privnet.Policy(
            f"p{i}",
            name=f"{prefix}-p{n}",
            enabled=True,
            rules=[
                privnet.PolicyRuleArgs(
                    name="ssh",
                    enabled=True,
                    action="accept",
                    bidirectional=False,
                    protocol="tcp",
                    ports=["22"],
                    sources=[groups[n % ruled].id],
                    destinations=[groups[(n + 1) % ruled].id],
                )
            ],
        )


def step(name: str, **data) -> None:
    print("STEP " + json.dumps({"step": name, **data}), flush=True)


def main() -> None:
    mode = sys.argv[1]
    work = os.environ["PRIVNET_TEST_WORK"]
    stack = auto.create_or_select_stack(
        stack_name="dev",
        project_name="privnet-python-interrupted",
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=work,
            secrets_provider="passphrase",
            project_settings=auto.ProjectSettings(name="privnet-python-interrupted", runtime="python"),
        ),
    )
    stack.set_config("privnet:apiUrl", auto.ConfigValue(value=os.environ["PRIVNET_TEST_URL"]))
    stack.set_config("privnet:token", auto.ConfigValue(value=os.environ["PRIVNET_TEST_TOKEN"], secret=True))
    echo = lambda line: print(line, flush=True)  # noqa: E731
    if mode == "up":
        step("up-started")
        stack.up(parallel=10, on_output=echo)
        step("up-finished")
    elif mode == "recover":
        stack.cancel()
        up = stack.up(on_output=echo)
        step("recover", changes=dict(up.summary.resource_changes or {}))
    elif mode == "settle":
        stack.refresh(clear_pending_creates=True, on_output=echo)
        step("settle", changes=dict(stack.preview().change_summary or {}))
    elif mode == "destroy":
        destroy = stack.destroy(on_output=echo)
        step("destroy", changes=dict(destroy.summary.resource_changes or {}))
    else:
        raise ValueError(f"unknown mode {mode}")


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
