"""A Python Automation API inline program with SCIM integrations and a notification channel, through the resource
plugin and the generated SDK (pulumi_privnet).

tests/e2e/provisioning.test.ts runs it like network.py (tests/e2e/inline.ts): one stack, one JSON line per step
(`STEP {...}`): up, a no-change preview, a refresh preview, a token rotation with a new header value (an update
in place of two resources), a no-change preview, destroy. The test scans the backend's files for the tokens and
the header values afterwards.

Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project),
PRIVNET_TEST_HOOK_SECRET (the first header value; the rotation appends "-2").
"""
import json
import os
import sys

import pulumi
import pulumi.automation as auto
import pulumi_privnet as privnet


def provisioning(rotation: str, hook_secret: str):
    def program() -> None:
        scim = privnet.ScimIntegration(
            "scim",
            prefix="py",
            provider="jumpcloud",
            group_prefixes=["eng-"],
            rotate_token=rotation,
        )
        okta = privnet.OktaScimIntegration("okta", connection_name="py-okta")
        privnet.NotificationChannel(
            "hook",
            type="webhook",
            target=privnet.NotificationChannelTargetArgs(
                url="https://hooks.example.com/py",
                headers={"X-Hook-Secret": hook_secret},
            ),
            event_types=["peer.add"],
            enabled=True,
        )
        pulumi.export("scimId", scim.id)
        pulumi.export("scimToken", scim.auth_token)
        pulumi.export("oktaToken", okta.auth_token)

    return program


def step(name: str, **data) -> None:
    print("STEP " + json.dumps({"step": name, **data}), flush=True)


def summary(result) -> dict:
    changes = result.summary.resource_changes if hasattr(result, "summary") else result.change_summary
    return {k: v for k, v in (changes or {}).items()}


def main() -> None:
    url = os.environ["PRIVNET_TEST_URL"]
    token = os.environ["PRIVNET_TEST_TOKEN"]
    work = os.environ["PRIVNET_TEST_WORK"]
    hook_secret = os.environ["PRIVNET_TEST_HOOK_SECRET"]

    def stack_for(rotation: str, secret: str) -> auto.Stack:
        stack = auto.create_or_select_stack(
            stack_name="dev",
            project_name="privnet-python-provisioning",
            program=provisioning(rotation, secret),
            opts=auto.LocalWorkspaceOptions(
                work_dir=work,
                secrets_provider="passphrase",
                project_settings=auto.ProjectSettings(name="privnet-python-provisioning", runtime="python"),
            ),
        )
        stack.set_config("privnet:apiUrl", auto.ConfigValue(value=url))
        stack.set_config("privnet:token", auto.ConfigValue(value=token, secret=True))
        return stack

    def shown(up) -> dict:
        return {k: {"secret": v.secret, "value": v.value} for k, v in up.outputs.items()}

    stack = stack_for("r1", hook_secret)
    up = stack.up()
    step("up", changes=summary(up), outputs=shown(up))
    step("preview", changes=summary(stack.preview()))
    step("refresh", changes=summary(stack.preview_refresh()))

    stack = stack_for("r2", hook_secret + "-2")
    up = stack.up()
    step("rotate", changes=summary(up), outputs=shown(up))
    step("after-rotate", changes=summary(stack.preview()))

    step("destroy", changes=summary(stack.destroy()))


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
