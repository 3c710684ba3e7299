"""Runs a Python program file (the README's Python quick start, PRIVNET_TEST_MAIN) as a Pulumi program: an
Automation API inline program whose body executes that file as `__main__.py` would run under Pulumi's Python
language host. Through the resource plugin and the generated SDK, against the server PRIVNET_TEST_URL /
PRIVNET_TEST_TOKEN; project directory PRIVNET_TEST_WORK.

It goes through up, a preview (which should show no change), and destroy, printing one `STEP {...}` line each.
"""
import json
import os
import runpy

import pulumi.automation as auto


def step(name: str, **data) -> None:
    print("STEP " + json.dumps({"step": name, **data}), flush=True)


def main() -> None:
    stack = auto.create_or_select_stack(
        stack_name="dev",
        project_name="quickstart",
        program=lambda: runpy.run_path(os.environ["PRIVNET_TEST_MAIN"], run_name="__main__"),
        opts=auto.LocalWorkspaceOptions(
            work_dir=os.environ["PRIVNET_TEST_WORK"],
            secrets_provider="passphrase",
            project_settings=auto.ProjectSettings(name="quickstart", runtime="python"),
        ),
    )
    stack.set_config("privnet:apiUrl", auto.ConfigValue(value=os.environ["PRIVNET_TEST_URL"]))
    stack.set_config("privnet:token", auto.ConfigValue(value=os.environ["PRIVNET_TEST_TOKEN"], secret=True))
    up = stack.up()
    outputs = {k: {"secret": v.secret, "value": v.value} for k, v in up.outputs.items()}
    step("up", changes=dict(up.summary.resource_changes or {}), outputs=outputs)
    step("preview", changes=dict(stack.preview().change_summary or {}))
    destroy = stack.destroy()
    step("destroy", changes=dict(destroy.summary.resource_changes or {}))


if __name__ == "__main__":
    main()
