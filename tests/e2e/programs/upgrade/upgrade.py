"""The upgrade test's Python program (tests/e2e/upgrade.test.ts), an Automation API inline program through the
resource plugin and the generated SDK: the same objects as Pulumi.yaml beside it, with every nested input type it
uses named as the SDK names it today (PolicyRuleArgs, PolicyRulePortRangeArgs, ...).

  python upgrade.py up        creates the objects (how the fixture's stack was made, by an earlier package)
  python upgrade.py preview   previews the stack the test imported; prints its change summary

It prints one line `STEP {...}` per step. Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server),
PRIVNET_TEST_WORK (the project directory: Pulumi.yaml and the stack's Pulumi.upgrade.yaml are written or read
there).
"""
import json
import os
import sys

import pulumi
import pulumi.automation as auto
import pulumi_privnet as privnet


def program() -> None:
    ops = privnet.Group("ops", name="py-ops")
    office = privnet.Network("office", name="py-office")
    printer = privnet.NetworkResource(
        "printer",
        network_id=office.id,
        name="py-printer",
        address="10.40.0.7",
        enabled=True,
        groups=[ops.id],
    )
    privnet.Group(
        "devices",
        name="py-devices",
        resources=[privnet.GroupResourceArgs(id=printer.id, type="host")],
    )
    baseline = privnet.PostureCheck(
        "baseline",
        name="py-baseline",
        description="Recent agent and kernel",
        checks=privnet.PostureCheckChecksArgs(
            nb_version_check=privnet.PostureCheckChecksNbVersionCheckArgs(min_version="0.30.0"),
            os_version_check=privnet.PostureCheckChecksOsVersionCheckArgs(
                linux=privnet.PostureCheckChecksOsVersionCheckLinuxArgs(min_kernel_version="5.10"),
            ),
            geo_location_check=privnet.PostureCheckChecksGeoLocationCheckArgs(
                action="allow",
                locations=[privnet.PostureCheckChecksGeoLocationCheckLocationArgs(country_code="DE")],
            ),
            peer_network_range_check=privnet.PostureCheckChecksPeerNetworkRangeCheckArgs(
                action="deny", ranges=["192.168.0.0/16"]
            ),
            process_check=privnet.PostureCheckChecksProcessCheckArgs(
                processes=[privnet.PostureCheckChecksProcessCheckProcessArgs(linux_path="/usr/bin/agent")],
            ),
        ),
    )
    privnet.Policy(
        "access",
        name="py-access",
        enabled=True,
        source_posture_checks=[baseline.id],
        rules=[
            privnet.PolicyRuleArgs(
                name="web",
                enabled=True,
                action="accept",
                bidirectional=False,
                protocol="tcp",
                port_ranges=[privnet.PolicyRulePortRangeArgs(start=8000, end=8080)],
                sources=[ops.id],
                destination_resource=privnet.PolicyRuleDestinationResourceArgs(id=printer.id, type="host"),
            )
        ],
    )
    privnet.NameserverGroup(
        "dns",
        name="py-dns",
        description="Office resolver",
        nameservers=[privnet.NameserverGroupNameserverArgs(ip="10.40.0.53", ns_type="udp", port=53)],
        enabled=True,
        groups=[ops.id],
        primary=False,
        domains=["py.example"],
        search_domains_enabled=False,
    )
    pulumi.export("opsGroupId", ops.id)


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
        project_name="privnet-upgrade-python",
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=work,
            secrets_provider="passphrase",
            project_settings=auto.ProjectSettings(name="privnet-upgrade-python", runtime="python"),
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
