"""A Python Automation API inline program with the kinds beyond the spec under the service's names (the five EDR
integrations, the two directory syncs, a peer's EDR bypass, an MSP tenant), through the resource plugin and the
generated SDK (pulumi_privnet).

tests/e2e/service-kinds.test.ts runs it (tests/e2e/inline.ts): one stack, one JSON line per step (`STEP {...}`): up,
a no-change preview, a refresh preview, stage 2 (every kind but the bypass changed in place), a no-change preview,
destroy.

Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project),
PRIVNET_TEST_SECRET (every credential is made from it), PRIVNET_TEST_PEER (an enrolled peer's id).
"""
import base64
import json
import os
import sys

import pulumi
import pulumi.automation as auto
import pulumi_privnet as privnet


def kinds(two: bool, secret: str, peer: str):
    def program() -> None:
        s = pulumi.Output.secret(secret)
        b64 = lambda suffix: s.apply(lambda v: base64.b64encode(f"{v}-{suffix}".encode()).decode())
        checked = privnet.Group("checked", name="py-checked")
        groups = [checked.id]
        privnet.EdrSentinelOne(
            "sentinelone",
            groups=groups,
            last_synced_interval=48 if two else 24,
            api_url="https://s1.example.com",
            api_token=s.apply(lambda v: f"{v}-s1"),
            match_attributes=privnet.EdrSentinelOneMatchAttributesArgs(active_threats=0, infected=False),
        )
        privnet.EdrIntune(
            "intune",
            groups=groups,
            last_synced_interval=24,
            client_id="intune-app",
            tenant_id="intune-tenant",
            secret=s.apply(lambda v: f"{v}-intune"),
            enabled=not two,
        )
        privnet.EdrFalcon(
            "falcon",
            groups=groups,
            client_id=s.apply(lambda v: f"{v}-falcon-id"),
            secret=s.apply(lambda v: f"{v}-falcon"),
            cloud_id="eu-1",
            zta_score_threshold=80 if two else 70,
        )
        privnet.EdrHuntress(
            "huntress",
            groups=groups,
            last_synced_interval=24,
            api_key=s.apply(lambda v: f"{v}-huntress-key"),
            api_secret=s.apply(lambda v: f"{v}-huntress"),
            match_attributes=privnet.EdrHuntressMatchAttributesArgs(firewall_status="Enabled" if two else "Isolated"),
        )
        privnet.EdrFleetDm(
            "fleet",
            groups=groups,
            last_synced_interval=24,
            api_url="https://fleet.example.com",
            api_token=s.apply(lambda v: f"{v}-fleet"),
            match_attributes=privnet.EdrFleetDmMatchAttributesArgs(
                disk_encryption_enabled=True, required_policies=[1, 2] if two else [1]
            ),
        )
        privnet.GoogleWorkspaceSync(
            "workspace",
            service_account_key=b64("google"),
            customer_id="C0py",
            group_prefixes=["eng-", "ops-"] if two else ["eng-"],
        )
        privnet.AzureAdSync(
            "entra",
            client_secret=b64("azure"),
            client_id="py-app",
            tenant_id="py-tenant",
            host="microsoft.com",
            enabled=not two,
        )
        privnet.PeerEdrBypass("bypass", peer_id=peer)
        tenant = privnet.MspTenant(
            "acme",
            name="Acme 2" if two else "Acme",
            domain="acme-py.example.com",
            groups=[privnet.MspTenantGroupArgs(id=checked.id, role="network_admin" if two else "admin")],
            unlink_owner="acme-owner",
        )
        pulumi.export("dnsChallenge", tenant.dns_challenge)

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
    secret = os.environ["PRIVNET_TEST_SECRET"]
    peer = os.environ["PRIVNET_TEST_PEER"]

    def stack_for(two: bool) -> auto.Stack:
        stack = auto.create_or_select_stack(
            stack_name="dev",
            project_name="privnet-python-service-kinds",
            program=kinds(two, secret, peer),
            opts=auto.LocalWorkspaceOptions(
                work_dir=work,
                secrets_provider="passphrase",
                project_settings=auto.ProjectSettings(name="privnet-python-service-kinds", runtime="python"),
            ),
        )
        stack.set_config("privnet:apiUrl", auto.ConfigValue(value=url))
        stack.set_config("privnet:token", auto.ConfigValue(value=token, secret=True))
        return stack

    stack = stack_for(False)
    step("up", changes=summary(stack.up()))
    step("preview", changes=summary(stack.preview()))
    step("refresh", changes=summary(stack.preview_refresh()))
    stack = stack_for(True)
    step("stage2", changes=summary(stack.up()))
    step("after-stage2", changes=summary(stack.preview()))
    step("destroy", changes=summary(stack.destroy()))


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
