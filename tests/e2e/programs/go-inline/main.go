// A Go Automation API inline program through the resource plugin and the generated SDK (sdk/go).
//
// The test (tests/e2e/plugin-go.test.ts) runs it with the CLI and the plugin on PATH, a file backend and a
// passphrase in the environment. It goes through a whole life on one stack and prints one JSON line per step
// (`STEP {...}`): up, a no-change preview, a refresh preview, a rename, destroy (as the Python program does).
//
// Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-privnet/pulumi-privnet/sdk/go/privnet"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func network(team string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		teamGroup, err := privnet.NewGroup(ctx, "team", &privnet.GroupArgs{Name: pulumi.String(team)})
		if err != nil {
			return err
		}
		servers, err := privnet.NewGroup(ctx, "servers", &privnet.GroupArgs{Name: pulumi.String("go-servers")})
		if err != nil {
			return err
		}
		_, err = privnet.NewPolicy(ctx, "team-to-servers", &privnet.PolicyArgs{
			Name:    pulumi.String("team to servers"),
			Enabled: pulumi.Bool(true),
			Rules: privnet.PolicyRuleArray{privnet.PolicyRuleArgs{
				Name:          pulumi.String("ssh"),
				Enabled:       pulumi.Bool(true),
				Action:        pulumi.String("accept"),
				Bidirectional: pulumi.Bool(false),
				Protocol:      pulumi.String("tcp"),
				Ports:         pulumi.StringArray{pulumi.String("22")},
				Sources:       pulumi.StringArray{teamGroup.ID().ToStringOutput()},
				Destinations:  pulumi.StringArray{servers.ID().ToStringOutput()},
			}},
		})
		if err != nil {
			return err
		}
		key, err := privnet.NewSetupKey(ctx, "enroll", &privnet.SetupKeyArgs{
			Name:       pulumi.String("go enroll"),
			Type:       pulumi.String("reusable"),
			ExpiresIn:  pulumi.Int(30 * 86400),
			AutoGroups: pulumi.StringArray{servers.ID().ToStringOutput()},
			UsageLimit: pulumi.Int(0),
		})
		if err != nil {
			return err
		}
		zone, err := privnet.NewDnsZone(ctx, "internal", &privnet.DnsZoneArgs{
			Name:               pulumi.String("go-internal"),
			Domain:             pulumi.String("go.internal.example.com"),
			EnableSearchDomain: pulumi.Bool(false),
			DistributionGroups: pulumi.StringArray{teamGroup.ID().ToStringOutput()},
		})
		if err != nil {
			return err
		}
		_, err = privnet.NewDnsRecord(ctx, "db", &privnet.DnsRecordArgs{
			ZoneId:  zone.ID().ToStringOutput(),
			Name:    pulumi.String("db.go.internal.example.com"),
			Type:    pulumi.String("A"),
			Content: pulumi.String("10.20.0.10"),
			Ttl:     pulumi.Int(300),
		})
		if err != nil {
			return err
		}
		everyone := privnet.LookupGroupOutput(ctx, privnet.LookupGroupOutputArgs{Name: pulumi.String("All")})
		ctx.Export("teamGroupId", teamGroup.ID())
		ctx.Export("everyoneGroupId", everyone.Id())
		ctx.Export("setupKey", key.Key)
		return nil
	}
}

func step(name string, data map[string]any) {
	data["step"] = name
	b, _ := json.Marshal(data)
	fmt.Printf("STEP %s\n", b)
}

func counts[K ~string](m map[K]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}

func summary(s auto.UpdateSummary) map[string]int {
	if s.ResourceChanges == nil {
		return map[string]int{}
	}
	return *s.ResourceChanges
}

func run() error {
	ctx := context.Background()
	url, token, work := os.Getenv("PRIVNET_TEST_URL"), os.Getenv("PRIVNET_TEST_TOKEN"), os.Getenv("PRIVNET_TEST_WORK")
	stackFor := func(team string) (auto.Stack, error) {
		s, err := auto.UpsertStackInlineSource(ctx, "dev", "privnet-go-inline", network(team),
			auto.WorkDir(work), auto.SecretsProvider("passphrase"))
		if err != nil {
			return s, err
		}
		if err := s.SetConfig(ctx, "privnet:apiUrl", auto.ConfigValue{Value: url}); err != nil {
			return s, err
		}
		return s, s.SetConfig(ctx, "privnet:token", auto.ConfigValue{Value: token, Secret: true})
	}

	s, err := stackFor("go-team")
	if err != nil {
		return err
	}
	up, err := s.Up(ctx)
	if err != nil {
		return err
	}
	outputs := map[string]any{}
	for k, v := range up.Outputs {
		outputs[k] = map[string]any{"secret": v.Secret, "value": v.Value}
	}
	step("up", map[string]any{"changes": summary(up.Summary), "outputs": outputs})

	p, err := s.Preview(ctx)
	if err != nil {
		return err
	}
	step("preview", map[string]any{"changes": counts[apitype.OpType](p.ChangeSummary)})
	r, err := s.PreviewRefresh(ctx)
	if err != nil {
		return err
	}
	step("refresh", map[string]any{"changes": counts[apitype.OpType](r.ChangeSummary)})

	if s, err = stackFor("go-team-renamed"); err != nil {
		return err
	}
	if p, err = s.Preview(ctx); err != nil {
		return err
	}
	step("rename-preview", map[string]any{"changes": counts[apitype.OpType](p.ChangeSummary)})
	up, err = s.Up(ctx)
	if err != nil {
		return err
	}
	step("rename", map[string]any{"changes": summary(up.Summary)})
	if p, err = s.Preview(ctx); err != nil {
		return err
	}
	step("after-rename", map[string]any{"changes": counts[apitype.OpType](p.ChangeSummary)})

	d, err := s.Destroy(ctx)
	if err != nil {
		return err
	}
	step("destroy", map[string]any{"changes": summary(d.Summary)})
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "FAILED: %v\n", err)
		os.Exit(1)
	}
}
