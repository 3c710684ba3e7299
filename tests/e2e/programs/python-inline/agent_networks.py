"""A Python Automation API inline program with every Agent Network kind and its lookups, through the resource
plugin and the generated SDK (pulumi_privnet).

tests/acceptance/agent-networks.test.ts runs it like network.py (tests/e2e/inline.ts): one stack, one JSON line per
step (`STEP {...}`): up, a no-change preview, a refresh preview, stage 2 (an update in place of every resource, the
API key rotated), a no-change preview, a refresh preview, destroy; then a provider and a guardrail made through the
API are imported (`import_`), previewed with no change and destroyed. The test scans the backend's files for the API
keys afterwards.

Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project),
PRIVNET_TEST_PREFIX (names), PRIVNET_TEST_PROXY (the gateway's cluster address), PRIVNET_TEST_API_KEY (the first
API key; stage 2 appends "-2").
"""
import json
import os
import sys
import urllib.request

import pulumi
import pulumi.automation as auto
import pulumi_privnet as privnet


def agent_networks(prefix: str, proxy: str, api_key: str, two: bool):
    def program() -> None:
        engineering = privnet.Group("engineering", name=f"{prefix}-engineering")
        gateway = privnet.AgentNetworkSettings(
            "gateway",
            proxy_address=proxy,
            enable_log_collection=True,
            redact_pii=two,
            access_log_retention_days=7 if two else 30,
        )
        openai = privnet.AgentNetworkProvider(
            "openai",
            provider_id="openai_api",
            name=f"{prefix} OpenAI (production)" if two else f"{prefix} OpenAI",
            upstream_url="https://api.openai.com",
            api_key=pulumi.Output.secret(api_key),
            enabled=True,
            models=[
                privnet.AgentNetworkProviderModelArgs(id="gpt-4o-mini", input_per1k=0.00015, output_per1k=0.0006),
            ]
            + ([privnet.AgentNetworkProviderModelArgs(id="gpt-4o", input_per1k=0.0025, output_per1k=0.01)] if two else []),
            # The service refuses to release settings while providers exist: providers go first.
            opts=pulumi.ResourceOptions(depends_on=[gateway]),
        )
        small = privnet.AgentNetworkGuardrail(
            "small",
            name=f"{prefix} small models",
            checks=privnet.AgentNetworkGuardrailChecksArgs(
                model_allowlist=privnet.AgentNetworkGuardrailChecksModelAllowlistArgs(
                    enabled=True, models=["gpt-4o-mini", "gpt-4o"] if two else ["gpt-4o-mini"]
                ),
            ),
        )
        policy = privnet.AgentNetworkPolicy(
            "engineering-openai",
            name=f"{prefix} engineering to openai",
            source_groups=[engineering.id],
            destination_provider_ids=[openai.id],
            guardrail_ids=[small.id],
            limits=privnet.AgentNetworkPolicyLimitsArgs(
                token_limit=privnet.AgentNetworkPolicyLimitsTokenLimitArgs(
                    enabled=True, group_cap=0, user_cap=1_000_000 if two else 2_000_000, window_seconds=86400
                ),
            ),
        )
        privnet.AgentNetworkBudgetRule(
            "daily",
            name=f"{prefix} daily ceiling",
            target_groups=[engineering.id],
            limits=privnet.AgentNetworkBudgetRuleLimitsArgs(
                budget_limit=privnet.AgentNetworkBudgetRuleLimitsBudgetLimitArgs(
                    enabled=True, group_cap_usd=80 if two else 100, user_cap_usd=0, window_seconds=86400
                ),
            ),
        )
        catalog = privnet.get_agent_network_catalog_provider_output(id="openai_api")
        pulumi.export("catalogHost", catalog.default_host)
        pulumi.export("endpoint", gateway.endpoint)
        # A lookup without inputs runs at once: this one waits for the settings it should find.
        pulumi.export(
            "settingsEndpoint",
            gateway.endpoint.apply(lambda _: privnet.get_agent_network_settings().endpoint),
        )
        pulumi.export("policyName", privnet.get_agent_network_policy_output(id=policy.id).name)
        pulumi.export("consumption", privnet.get_agent_network_consumption_output().items.apply(len))
        pulumi.export("usageBuckets", privnet.get_agent_network_usage_output(granularity="month").items.apply(len))
        pulumi.export("accessLogRecords", privnet.get_agent_network_access_logs_output(page_size=10).total_records)

    return program


def imported(ids: dict, api_key: str):
    """Objects made out of band, brought under management with the `import_` resource option."""

    def program() -> None:
        privnet.AgentNetworkProvider(
            "imported-provider",
            provider_id="anthropic_api",
            name="by hand",
            upstream_url="https://api.anthropic.com",
            api_key=pulumi.Output.secret(api_key),
            enabled=True,
            opts=pulumi.ResourceOptions(import_=ids["provider"]),
        )
        privnet.AgentNetworkGuardrail(
            "imported-guardrail",
            name="by hand",
            checks=privnet.AgentNetworkGuardrailChecksArgs(
                prompt_capture=privnet.AgentNetworkGuardrailChecksPromptCaptureArgs(enabled=True, redact_pii=True),
            ),
            opts=pulumi.ResourceOptions(import_=ids["guardrail"]),
        )

    return program


def api(url: str, token: str, method: str, path: str, body=None) -> dict:
    req = urllib.request.Request(
        url + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as res:
        return json.loads(res.read() or b"{}")


def step(name: str, **data) -> None:
    print("STEP " + json.dumps({"step": name, **data}), flush=True)


def summary(result) -> dict:
    changes = result.summary.resource_changes if hasattr(result, "summary") else result.change_summary
    return {k: v for k, v in (changes or {}).items()}


def main() -> None:
    url = os.environ["PRIVNET_TEST_URL"]
    token = os.environ["PRIVNET_TEST_TOKEN"]
    work = os.environ["PRIVNET_TEST_WORK"]
    prefix = os.environ["PRIVNET_TEST_PREFIX"]
    proxy = os.environ["PRIVNET_TEST_PROXY"]
    api_key = os.environ["PRIVNET_TEST_API_KEY"]

    def stack_for(two: bool) -> auto.Stack:
        stack = auto.create_or_select_stack(
            stack_name="dev",
            project_name="privnet-python-agent-networks",
            program=agent_networks(prefix, proxy, api_key + ("-2" if two else ""), two),
            opts=auto.LocalWorkspaceOptions(
                work_dir=work,
                secrets_provider="passphrase",
                project_settings=auto.ProjectSettings(name="privnet-python-agent-networks", runtime="python"),
            ),
        )
        stack.set_config("privnet:apiUrl", auto.ConfigValue(value=url))
        stack.set_config("privnet:token", auto.ConfigValue(value=token, secret=True))
        return stack

    def shown(up) -> dict:
        return {k: {"secret": v.secret, "value": v.value} for k, v in up.outputs.items()}

    stack = stack_for(False)
    try:
        up = stack.up()
        step("up", changes=summary(up), outputs=shown(up))
        step("preview", changes=summary(stack.preview()))
        step("refresh", changes=summary(stack.preview_refresh()))
        stack = stack_for(True)
        up = stack.up()
        step("update", changes=summary(up), outputs=shown(up))
        step("after-update", changes=summary(stack.preview()))
        step("after-update-refresh", changes=summary(stack.preview_refresh()))
    finally:
        step("destroy", changes=summary(stack.destroy()))

    # Import: a provider and a guardrail made through the API, adopted with `import_`; then no change; destroy.
    ids = {
        "provider": api(url, token, "POST", "/api/agent-network/providers", {
            "provider_id": "anthropic_api", "name": "by hand", "upstream_url": "https://api.anthropic.com",
            "api_key": api_key + "-imported", "enabled": True,
        })["id"],
        "guardrail": api(url, token, "POST", "/api/agent-network/guardrails", {
            "name": "by hand", "checks": {"prompt_capture": {"enabled": True, "redact_pii": True}},
        })["id"],
    }
    imp = auto.create_or_select_stack(
        stack_name="imported",
        project_name="privnet-python-agent-networks",
        program=imported(ids, api_key + "-imported"),
        opts=auto.LocalWorkspaceOptions(
            work_dir=work,
            secrets_provider="passphrase",
            project_settings=auto.ProjectSettings(name="privnet-python-agent-networks", runtime="python"),
        ),
    )
    imp.set_config("privnet:apiUrl", auto.ConfigValue(value=url))
    imp.set_config("privnet:token", auto.ConfigValue(value=token, secret=True))
    try:
        step("import", changes=summary(imp.up()))
        step("after-import", changes=summary(imp.preview()))
        step("after-import-refresh", changes=summary(imp.preview_refresh()))
    finally:
        step("import-destroy", changes=summary(imp.destroy()))


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test prints what went wrong
        print(f"FAILED {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        sys.exit(1)
