// The three components in a Java program (tests/e2e/components.ts, javaLife): one stage of
// ../../components/scenario.json, given as the stack's config `components` (the stage's components, JSON) and
// `prefix`, built with the generated SDK's classes (the resource plugin constructs them). Strings ${app} and ${ops}
// are the ids of the groups declared first; an input the program does not know fails the run, naming it.
package myproject;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import io.github.pulumiprivnet.privnet.DnsZoneBundle;
import io.github.pulumiprivnet.privnet.DnsZoneBundleArgs;
import io.github.pulumiprivnet.privnet.Group;
import io.github.pulumiprivnet.privnet.GroupArgs;
import io.github.pulumiprivnet.privnet.NetworkBundle;
import io.github.pulumiprivnet.privnet.NetworkBundleArgs;
import io.github.pulumiprivnet.privnet.Segment;
import io.github.pulumiprivnet.privnet.SegmentArgs;
import io.github.pulumiprivnet.privnet.inputs.DnsZoneBundleRecordArgs;
import io.github.pulumiprivnet.privnet.inputs.NetworkBundleResourceArgs;
import io.github.pulumiprivnet.privnet.inputs.NetworkBundleRouterArgs;
import io.github.pulumiprivnet.privnet.inputs.SegmentAllowArgs;
import io.github.pulumiprivnet.privnet.inputs.SegmentSetupKeyOptionsArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    private static String prefix;
    private static Map<String, Group> groups;

    static void stack(Context ctx) {
        var config = ctx.config();
        prefix = config.require("prefix");
        var components = JsonParser.parseString(config.require("components")).getAsJsonObject();
        groups = Map.of(
            "app", new Group("app", GroupArgs.builder().name(prefix + "-app").build()),
            "ops", new Group("ops", GroupArgs.builder().name(prefix + "-ops").build()));

        Segment db = null;
        NetworkBundle office = null;
        DnsZoneBundle zone = null;
        for (var entry : components.entrySet()) {
            var name = entry.getKey();
            var c = entry.getValue().getAsJsonObject();
            var type = c.get("type").getAsString();
            var a = c.getAsJsonObject("args");
            switch (type) {
                case "Segment":
                    db = new Segment(name, segment(a));
                    break;
                case "NetworkBundle":
                    office = new NetworkBundle(name, networkBundle(a));
                    break;
                case "DnsZoneBundle":
                    zone = new DnsZoneBundle(name, dnsZoneBundle(a));
                    break;
                default:
                    throw new IllegalArgumentException("unknown component type " + type);
            }
        }

        ctx.export("setupKey", db.setupKey());
        ctx.export("groupId", db.groupId());
        ctx.export("policyIds", db.policyIds());
        ctx.export("networkId", office.networkId());
        ctx.export("routerIds", office.routerIds());
        ctx.export("resourceIds", office.resourceIds());
        ctx.export("zoneId", zone.zoneId());
        ctx.export("recordIds", zone.recordIds());
        ctx.export("appGroupId", groups.get("app").id());
        ctx.export("opsGroupId", groups.get("ops").id());
    }

    static SegmentArgs segment(JsonObject a) {
        only(a, "name", "setupKeyOptions", "allow");
        var b = SegmentArgs.builder().name(text(a, "name"));
        if (a.has("setupKeyOptions")) {
            var o = a.getAsJsonObject("setupKeyOptions");
            only(o, "expiresIn", "name", "type", "usageLimit");
            var k = SegmentSetupKeyOptionsArgs.builder();
            if (o.has("expiresIn")) k.expiresIn(o.get("expiresIn").getAsInt());
            if (o.has("name")) k.name(text(o, "name"));
            if (o.has("type")) k.type(text(o, "type"));
            if (o.has("usageLimit")) k.usageLimit(o.get("usageLimit").getAsInt());
            b.setupKeyOptions(k.build());
        }
        var allow = new ArrayList<SegmentAllowArgs>();
        for (var e : a.getAsJsonArray("allow")) {
            var o = e.getAsJsonObject();
            only(o, "from", "protocol", "ports", "description");
            var r = SegmentAllowArgs.builder().from(ids(o.getAsJsonArray("from"))).protocol(text(o, "protocol"));
            if (o.has("ports")) r.ports(texts(o.getAsJsonArray("ports")));
            if (o.has("description")) r.description(text(o, "description"));
            allow.add(r.build());
        }
        return b.allow(allow).build();
    }

    static NetworkBundleArgs networkBundle(JsonObject a) {
        only(a, "name", "routers", "resources");
        var routers = new ArrayList<NetworkBundleRouterArgs>();
        for (var e : a.getAsJsonArray("routers")) {
            var o = e.getAsJsonObject();
            only(o, "peerGroups", "metric");
            var r = NetworkBundleRouterArgs.builder().peerGroups(ids(o.getAsJsonArray("peerGroups")));
            if (o.has("metric")) r.metric(o.get("metric").getAsInt());
            routers.add(r.build());
        }
        var resources = new ArrayList<NetworkBundleResourceArgs>();
        for (var e : a.getAsJsonArray("resources")) {
            var o = e.getAsJsonObject();
            only(o, "name", "address", "groups");
            var r = NetworkBundleResourceArgs.builder().name(text(o, "name")).address(text(o, "address"));
            if (o.has("groups")) r.groups(ids(o.getAsJsonArray("groups")));
            resources.add(r.build());
        }
        return NetworkBundleArgs.builder().name(text(a, "name")).routers(routers).resources(resources).build();
    }

    static DnsZoneBundleArgs dnsZoneBundle(JsonObject a) {
        only(a, "name", "domain", "distributionGroups", "records");
        var records = new ArrayList<DnsZoneBundleRecordArgs>();
        for (var e : a.getAsJsonArray("records")) {
            var o = e.getAsJsonObject();
            only(o, "name", "type", "content", "ttl");
            var r = DnsZoneBundleRecordArgs.builder().name(text(o, "name")).type(text(o, "type"))
                .content(text(o, "content"));
            if (o.has("ttl")) r.ttl(o.get("ttl").getAsInt());
            records.add(r.build());
        }
        return DnsZoneBundleArgs.builder()
            .name(text(a, "name"))
            .domain(text(a, "domain"))
            .distributionGroups(ids(a.getAsJsonArray("distributionGroups")))
            .records(records)
            .build();
    }

    /** Fails on an input this program does not know: the scenario grew, and so must the program. */
    static void only(JsonObject o, String... known) {
        for (var key : o.keySet())
            if (!Set.of(known).contains(key)) throw new IllegalArgumentException("unknown input " + key);
    }

    /** A string of the scenario with ${prefix} filled in. */
    static String text(JsonObject o, String key) {
        return o.get(key).getAsString().replace("${prefix}", prefix);
    }

    static List<String> texts(JsonArray list) {
        var out = new ArrayList<String>();
        for (JsonElement e : list) out.add(e.getAsString().replace("${prefix}", prefix));
        return out;
    }

    /** A list of group references (${app}, ${ops}) as the groups' ids. */
    static Output<List<String>> ids(JsonArray list) {
        var out = new ArrayList<Output<String>>();
        for (JsonElement e : list) {
            var s = e.getAsString();
            if (!s.matches("\\$\\{(app|ops)\\}")) throw new IllegalArgumentException("not a group reference: " + s);
            out.add(groups.get(s.substring(2, s.length() - 1)).id());
        }
        return Output.all(out);
    }
}
