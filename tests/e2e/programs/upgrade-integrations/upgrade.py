"""The integrations upgrade test's Python program (tests/e2e/upgrade-integrations.test.ts): the program of
tests/fixtures/upgrade-integrations/programs/python/before.py under today's names of the five integrations."""

import json
import os
import sys

import pulumi
import pulumi.automation as auto
import pulumi_privnet as privnet


def program() -> None:
    checked = privnet.Group("checked", name="py-edr-checked")
    privnet.EdrSentinelOne(
        "edrA",
        groups=[checked.id],
        last_synced_interval=24,
        api_token="py-edr-a-token-b27f10",
        api_url="https://edr-a.example.com",
        match_attributes=privnet.EdrSentinelOneMatchAttributesArgs(
            active_threats=0, infected=False, network_status="connected"
        ),
    )
    privnet.EdrIntune(
        "edrB",
        groups=[checked.id],
        last_synced_interval=48,
        client_id="py-edr-b-client",
        tenant_id="py-edr-b-tenant",
        secret="py-edr-b-secret-5c08e4",
    )
    privnet.EdrFalcon(
        "edrC",
        groups=[checked.id],
        client_id="py-edr-c-client-71d9a3",
        secret="py-edr-c-secret-3e6fb2",
        cloud_id="us-1",
        zta_score_threshold=70,
    )
    privnet.GoogleWorkspaceSync(
        "syncD",
        service_account_key="cHktZGlyLWQta2V5LWEwN2I1NQ==",
        customer_id="C0pyd",
        group_prefixes=["eng-"],
    )
    privnet.AzureAdSync(
        "syncE",
        client_secret="cHktZGlyLWUtc2VjcmV0LWUzOWM0Mg==",
        client_id="py-dir-e-client",
        tenant_id="py-dir-e-tenant",
        host="microsoft.com",
        user_group_prefixes=["staff"],
    )
    pulumi.export("checkedGroupId", checked.id)


def step(name: str, **data) -> None:
    print("STEP " + json.dumps({"step": name, **data}), flush=True)


def summary(result) -> dict:
    changes = result.summary.resource_changes if hasattr(result, "summary") else result.change_summary
    return dict(changes or {})


def main() -> None:
    command = sys.argv[1]
    work = os.environ["PRIVNET_TEST_WORK"]
    stack = auto.create_or_select_stack(
        stack_name="upgrade",
        project_name="privnet-upgrade-integrations-python",
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=work,
            secrets_provider="passphrase",
            project_settings=auto.ProjectSettings(
                name="privnet-upgrade-integrations-python", runtime="python"
            ),
        ),
    )
    stack.set_config("privnet:apiUrl", auto.ConfigValue(value=os.environ["PRIVNET_TEST_URL"]))
    stack.set_config("privnet:token", auto.ConfigValue(value=os.environ["PRIVNET_TEST_TOKEN"], secret=True))
    if command == "up":
        step("up", changes=summary(stack.up()))
    elif command == "preview":
        preview = stack.preview(diff=True)
        step("preview", changes=summary(preview), stdout=preview.stdout)
    else:
        raise SystemExit(f"unknown command {command!r} (up or preview)")


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
