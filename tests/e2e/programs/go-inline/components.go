// The three components through the resource plugin and the generated Go SDK: the stages of
// ../components/scenario.json on one stack, one JSON line per step (`STEP {...}`), the same steps as the Python
// program (python-inline/components.py). Run with PRIVNET_TEST_PROGRAM=components.
//
// Environment: PRIVNET_TEST_URL, PRIVNET_TEST_TOKEN (the server), PRIVNET_TEST_WORK (a directory for the project),
// PRIVNET_TEST_PREFIX (names made unique on a shared server; default `go`).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pulumi-privnet/pulumi-privnet/sdk/go/privnet"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type component struct {
	Type string         `json:"type"`
	Args map[string]any `json:"args"`
}

type stage struct {
	Stage      string               `json:"stage"`
	Components map[string]component `json:"components"`
}

func scenario() ([]stage, error) {
	_, file, _, _ := runtime.Caller(0)
	dir := os.Getenv("PRIVNET_TEST_PROGRAM_DIR")
	if dir == "" {
		dir = filepath.Dir(file)
	}
	data, err := os.ReadFile(filepath.Join(dir, "..", "components", "scenario.json"))
	if err != nil {
		return nil, err
	}
	var doc struct {
		Stages []stage `json:"stages"`
	}
	return doc.Stages, json.Unmarshal(data, &doc)
}

// The scenario's values as inputs: ${app} and ${ops} as the groups' ids, ${prefix} as the prefix.
type filler struct {
	prefix string
	groups map[string]*privnet.Group
}

func (f filler) str(v any) pulumi.StringInput {
	s, _ := v.(string)
	if s == "${app}" || s == "${ops}" {
		return f.groups[s[2:len(s)-1]].ID().ToStringOutput()
	}
	return pulumi.String(strings.ReplaceAll(s, "${prefix}", f.prefix))
}

func (f filler) strPtr(v any) pulumi.StringPtrInput {
	if v == nil {
		return nil
	}
	return f.str(v).ToStringOutput().ToStringPtrOutput()
}

func (f filler) strs(v any) pulumi.StringArrayInput {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := pulumi.StringArray{}
	for _, x := range list {
		out = append(out, f.str(x))
	}
	return out
}

func intPtr(v any) pulumi.IntPtrInput {
	if n, ok := v.(float64); ok {
		return pulumi.IntPtr(int(n))
	}
	return nil
}

func boolPtr(v any) pulumi.BoolPtrInput {
	if b, ok := v.(bool); ok {
		return pulumi.BoolPtr(b)
	}
	return nil
}

func entries(v any) []map[string]any {
	list, _ := v.([]any)
	out := []map[string]any{}
	for _, x := range list {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out
}

func componentsProgram(stage stage, prefix string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		f := filler{prefix: prefix, groups: map[string]*privnet.Group{}}
		for _, g := range []string{"app", "ops"} {
			group, err := privnet.NewGroup(ctx, g, &privnet.GroupArgs{Name: pulumi.String(prefix + "-" + g)})
			if err != nil {
				return err
			}
			f.groups[g] = group
		}
		for name, c := range stage.Components {
			a := c.Args
			switch c.Type {
			case "Segment":
				allow := privnet.SegmentAllowArray{}
				for _, e := range entries(a["allow"]) {
					allow = append(allow, privnet.SegmentAllowArgs{
						From: f.strs(e["from"]), Protocol: f.str(e["protocol"]), Ports: f.strs(e["ports"]),
						Description: f.strPtr(e["description"]),
					})
				}
				args := &privnet.SegmentArgs{Name: f.str(a["name"]), Allow: allow}
				if k, ok := a["setupKeyOptions"].(map[string]any); ok {
					args.SetupKeyOptions = privnet.SegmentSetupKeyOptionsArgs{ExpiresIn: intPtr(k["expiresIn"])}
				}
				s, err := privnet.NewSegment(ctx, name, args)
				if err != nil {
					return err
				}
				ctx.Export("setupKey", s.SetupKey)
				ctx.Export("groupId", s.GroupId)
				ctx.Export("policyIds", s.PolicyIds)
			case "NetworkBundle":
				routers := privnet.NetworkBundleRouterArray{}
				for _, e := range entries(a["routers"]) {
					routers = append(routers, privnet.NetworkBundleRouterArgs{
						Peer: f.strPtr(e["peer"]), PeerGroups: f.strs(e["peerGroups"]), Metric: intPtr(e["metric"]),
						Masquerade: boolPtr(e["masquerade"]), Enabled: boolPtr(e["enabled"]),
					})
				}
				resources := privnet.NetworkBundleResourceArray{}
				for _, e := range entries(a["resources"]) {
					resources = append(resources, privnet.NetworkBundleResourceArgs{
						Name: f.str(e["name"]), Address: f.str(e["address"]), Groups: f.strs(e["groups"]),
						Enabled: boolPtr(e["enabled"]), Description: f.strPtr(e["description"]),
					})
				}
				n, err := privnet.NewNetworkBundle(ctx, name, &privnet.NetworkBundleArgs{
					Name: f.str(a["name"]), Description: f.strPtr(a["description"]), Routers: routers, Resources: resources,
				})
				if err != nil {
					return err
				}
				ctx.Export("networkId", n.NetworkId)
				ctx.Export("routerIds", n.RouterIds)
				ctx.Export("resourceIds", n.ResourceIds)
			case "DnsZoneBundle":
				records := privnet.DnsZoneBundleRecordArray{}
				for _, e := range entries(a["records"]) {
					records = append(records, privnet.DnsZoneBundleRecordArgs{
						Name: f.str(e["name"]), Type: f.str(e["type"]), Content: f.str(e["content"]), Ttl: intPtr(e["ttl"]),
					})
				}
				z, err := privnet.NewDnsZoneBundle(ctx, name, &privnet.DnsZoneBundleArgs{
					Name: f.str(a["name"]), Domain: f.str(a["domain"]), DistributionGroups: f.strs(a["distributionGroups"]),
					Records: records,
				})
				if err != nil {
					return err
				}
				ctx.Export("zoneId", z.ZoneId)
				ctx.Export("recordIds", z.RecordIds)
			default:
				return fmt.Errorf("no component %s", c.Type)
			}
		}
		ctx.Export("appGroupId", f.groups["app"].ID())
		ctx.Export("opsGroupId", f.groups["ops"].ID())
		return nil
	}
}

// The engine's resource steps of one operation: `op type::name` (changes only) and each resource's parent.
type stepLog struct {
	ops     []string
	parents map[string]string
	done    chan struct{}
}

func watch() (*stepLog, chan events.EngineEvent) {
	log := &stepLog{ops: []string{}, parents: map[string]string{}, done: make(chan struct{})}
	ch := make(chan events.EngineEvent)
	go func() {
		defer close(log.done)
		for ev := range ch {
			if ev.ResourcePreEvent == nil {
				continue
			}
			m := ev.ResourcePreEvent.Metadata
			parts := strings.Split(m.URN, "::")
			types := strings.Split(parts[len(parts)-2], "$")
			short := types[len(types)-1] + "::" + parts[len(parts)-1]
			if m.Op != apitype.OpSame {
				log.ops = append(log.ops, fmt.Sprintf("%s %s", m.Op, short))
			}
			state := m.New
			if state == nil {
				state = m.Old
			}
			if state != nil {
				p := strings.Split(state.Parent, "::")
				log.parents[short] = p[len(p)-1]
			}
		}
	}()
	return log, ch
}

func runComponents() error {
	ctx := context.Background()
	url, token, work := os.Getenv("PRIVNET_TEST_URL"), os.Getenv("PRIVNET_TEST_TOKEN"), os.Getenv("PRIVNET_TEST_WORK")
	prefix := os.Getenv("PRIVNET_TEST_PREFIX")
	if prefix == "" {
		prefix = "go"
	}
	stages, err := scenario()
	if err != nil {
		return err
	}
	stackFor := func(s stage) (auto.Stack, error) {
		st, err := auto.UpsertStackInlineSource(ctx, "components", "privnet-go-components", componentsProgram(s, prefix),
			auto.WorkDir(work), auto.SecretsProvider("passphrase"))
		if err != nil {
			return st, err
		}
		if err := st.SetConfig(ctx, "privnet:apiUrl", auto.ConfigValue{Value: url}); err != nil {
			return st, err
		}
		return st, st.SetConfig(ctx, "privnet:token", auto.ConfigValue{Value: token, Secret: true})
	}

	s, err := stackFor(stages[0])
	if err != nil {
		return err
	}
	first, ch := watch()
	p, err := s.Preview(ctx, optpreview.EventStreams(ch))
	if err != nil {
		return err
	}
	<-first.done
	step("first-preview", map[string]any{
		"changes": counts[apitype.OpType](p.ChangeSummary), "ops": first.ops, "parents": first.parents,
	})
	up, err := s.Up(ctx)
	if err != nil {
		return err
	}
	outputs := map[string]any{}
	for k, v := range up.Outputs {
		outputs[k] = map[string]any{"secret": v.Secret, "value": v.Value}
	}
	step("up", map[string]any{"changes": summary(up.Summary), "outputs": outputs})
	if p, err = s.Preview(ctx); err != nil {
		return err
	}
	step("preview", map[string]any{"changes": counts[apitype.OpType](p.ChangeSummary)})
	r, err := s.PreviewRefresh(ctx)
	if err != nil {
		return err
	}
	step("refresh", map[string]any{"changes": counts[apitype.OpType](r.ChangeSummary)})

	for _, st := range stages[1:] {
		if s, err = stackFor(st); err != nil {
			return err
		}
		seen, ch := watch()
		if p, err = s.Preview(ctx, optpreview.EventStreams(ch)); err != nil {
			return err
		}
		<-seen.done
		applied, ch := watch()
		if up, err = s.Up(ctx, optup.EventStreams(ch)); err != nil {
			return err
		}
		<-applied.done
		plain := map[string]any{}
		for k, v := range up.Outputs {
			if !v.Secret {
				plain[k] = v.Value
			}
		}
		step(st.Stage, map[string]any{
			"previewChanges": counts[apitype.OpType](p.ChangeSummary), "previewOps": seen.ops,
			"changes": summary(up.Summary), "ops": applied.ops, "values": plain,
		})
		if p, err = s.Preview(ctx); err != nil {
			return err
		}
		step("after-"+st.Stage, map[string]any{"changes": counts[apitype.OpType](p.ChangeSummary)})
	}

	last := stages[len(stages)-1]
	bad := stage{Stage: "bad", Components: map[string]component{}}
	for name, c := range last.Components {
		bad.Components[name] = c
	}
	db := bad.Components["db"]
	args := map[string]any{}
	for k, v := range db.Args {
		args[k] = v
	}
	first0 := map[string]any{}
	for k, v := range entries(args["allow"])[0] {
		first0[k] = v
	}
	first0["ports"] = []any{"5432", "99999"}
	args["allow"] = []any{first0}
	bad.Components["db"] = component{Type: db.Type, Args: args}
	if s, err = stackFor(bad); err != nil {
		return err
	}
	if _, err = s.Preview(ctx); err != nil {
		step("bad", map[string]any{"failed": true, "message": err.Error()})
	} else {
		step("bad", map[string]any{"failed": false})
	}

	if s, err = stackFor(last); err != nil {
		return err
	}
	d, err := s.Destroy(ctx)
	if err != nil {
		return err
	}
	step("destroy", map[string]any{"changes": summary(d.Summary)})
	return nil
}
