"""The access guard under a Python Automation API inline program (tests/e2e/access-guard-languages.test.ts).

The stack is made through the resource plugin and the generated SDK (pulumi_privnet), then changed: the policy
"py app to db" lets the routers reach the database too, and a new group "py-lab" (holding laptop-1) reaches it on
tcp/3306 through a new policy naming the group by its id (unknown before apply). The change is previewed with the
policy pack (`policy_packs`, `policy_pack_configs`) and applied only if that preview passes: the Automation API's
`up` runs `pulumi up --skip-preview`, where a policy pack only runs after the change is applied. One JSON line per
step (`STEP {...}`) says what the CLI printed and whether the command succeeded.

Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project),
PRIVNET_TEST_IDS (JSON: the account's db, admins and routers group ids, the laptop-1 peer id), PRIVNET_TEST_PACK
(the policy pack), PRIVNET_TEST_PACK_CONFIG (its config for the preview: tests the change keeps) and
PRIVNET_TEST_PACK_CONFIG_STRICT (its config for the up: a test the change breaks).
"""
import json
import os
import sys

import pulumi.automation as auto
import pulumi_privnet as privnet

IDS = json.loads(os.environ["PRIVNET_TEST_IDS"])


def rule(name: str, port: str, sources, destinations) -> privnet.PolicyRuleArgs:
    return privnet.PolicyRuleArgs(
        name=name,
        enabled=True,
        action="accept",
        bidirectional=False,
        protocol="tcp",
        ports=[port],
        sources=sources,
        destinations=destinations,
    )


def network(changed: bool):
    def program() -> None:
        sources = [IDS["admins"], IDS["routers"]] if changed else [IDS["admins"]]
        privnet.Policy(
            "app-to-db",
            name="py app to db",
            enabled=True,
            rules=[rule("postgres", "5432", sources, [IDS["db"]])],
        )
        if changed:
            lab = privnet.Group("lab", name="py-lab", peers=[IDS["laptop"]])
            privnet.Policy(
                "lab-to-db",
                name="py lab to db",
                enabled=True,
                rules=[rule("mysql", "3306", [lab.id], [IDS["db"]])],
            )

    return program


def step(name: str, **data) -> None:
    print("STEP " + json.dumps({"step": name, **data}), flush=True)


def main() -> None:
    work = os.environ["PRIVNET_TEST_WORK"]
    pack = os.environ["PRIVNET_TEST_PACK"]
    config = os.environ["PRIVNET_TEST_PACK_CONFIG"]
    strict = os.environ["PRIVNET_TEST_PACK_CONFIG_STRICT"]

    def stack_for(changed: bool) -> auto.Stack:
        stack = auto.create_or_select_stack(
            stack_name="dev",
            project_name="privnet-python-guard",
            program=network(changed),
            opts=auto.LocalWorkspaceOptions(
                work_dir=work,
                secrets_provider="passphrase",
                project_settings=auto.ProjectSettings(name="privnet-python-guard", runtime="python"),
            ),
        )
        stack.set_config("privnet:apiUrl", auto.ConfigValue(value=os.environ["PRIVNET_TEST_URL"]))
        stack.set_config("privnet:token", auto.ConfigValue(value=os.environ["PRIVNET_TEST_TOKEN"], secret=True))
        return stack

    stack_for(False).up()
    step("up")

    stack = stack_for(True)
    preview = stack.preview(policy_packs=[pack], policy_pack_configs=[config])
    step("preview", ok=True, stdout=preview.stdout)

    # The guard of a deployment: preview with the pack, and up only when the preview passed.
    try:
        checked = stack.preview(policy_packs=[pack], policy_pack_configs=[strict])
    except auto.CommandError as err:
        step("preview-strict", ok=False, stdout=str(err))
        return
    step("preview-strict", ok=True, stdout=checked.stdout)
    stack.up()
    step("up")


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
