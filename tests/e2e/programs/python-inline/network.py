"""A Python Automation API inline program through the resource plugin and the generated SDK (pulumi_privnet).

The test (tests/e2e/plugin-python.test.ts) runs it with the CLI and the plugin on PATH, a file backend and a
passphrase in the environment. It goes through a whole life on one stack and prints one JSON line per step
(`STEP {...}`) for the test to check: up, a no-change preview, a refresh preview, a rename, destroy. The test
scans the backend's files for secrets afterwards (the Automation API's export shows secrets).

Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project).
"""
import json
import os
import sys

import pulumi
import pulumi.automation as auto
import pulumi_privnet as privnet


def network(team: str):
    def program() -> None:
        team_group = privnet.Group("team", name=team)
        servers = privnet.Group("servers", name="py-servers")
        privnet.Policy(
            "team-to-servers",
            name="team to servers",
            enabled=True,
            rules=[
                privnet.PolicyRuleArgs(
                    name="ssh",
                    enabled=True,
                    action="accept",
                    bidirectional=False,
                    protocol="tcp",
                    ports=["22"],
                    sources=[team_group.id],
                    destinations=[servers.id],
                )
            ],
        )
        key = privnet.SetupKey(
            "enroll",
            name="py enroll",
            type="reusable",
            expires_in=30 * 86400,
            auto_groups=[servers.id],
            usage_limit=0,
        )
        zone = privnet.DnsZone(
            "internal",
            name="py-internal",
            domain="py.internal.example.com",
            enable_search_domain=False,
            distribution_groups=[team_group.id],
        )
        privnet.DnsRecord(
            "db",
            zone_id=zone.id,
            name="db.py.internal.example.com",
            type="A",
            content="10.20.0.10",
            ttl=300,
        )
        everyone = privnet.get_group_output(name="All")
        pulumi.export("teamGroupId", team_group.id)
        pulumi.export("everyoneGroupId", everyone.id)
        pulumi.export("setupKey", key.key)

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

    def stack_for(team: str) -> auto.Stack:
        stack = auto.create_or_select_stack(
            stack_name="dev",
            project_name="privnet-python-inline",
            program=network(team),
            opts=auto.LocalWorkspaceOptions(
                work_dir=work,
                secrets_provider="passphrase",
                project_settings=auto.ProjectSettings(name="privnet-python-inline", runtime="python"),
            ),
        )
        stack.set_config("privnet:apiUrl", auto.ConfigValue(value=url))
        stack.set_config("privnet:token", auto.ConfigValue(value=token, secret=True))
        return stack

    stack = stack_for("py-team")
    up = stack.up()
    outputs = {k: {"secret": v.secret, "value": v.value} for k, v in up.outputs.items()}
    step("up", changes=summary(up), outputs=outputs)

    step("preview", changes=summary(stack.preview()))
    step("refresh", changes=summary(stack.preview_refresh()))

    stack = stack_for("py-team-renamed")
    preview = stack.preview(diff=True)
    step("rename-preview", changes=summary(preview))
    up = stack.up()
    step("rename", changes=summary(up), teamGroupId=up.outputs["teamGroupId"].value)
    step("after-rename", changes=summary(stack.preview()))

    destroy = stack.destroy()
    step("destroy", changes=summary(destroy))


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
