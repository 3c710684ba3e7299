// A Java program through the resource plugin and the generated SDK, for the acceptance tier
// (tests/acceptance/programs.test.ts; the same resources as tests/e2e/programs/python-inline/network.py): a team
// group (named by the stack's config `team`, so that a rename is an update in place), a servers group, a policy
// from the one to the other, a setup key (a secret output), a DNS zone with a record, and the lookup of the
// account's All group. Every name carries the stack's config `prefix`, unique to the run on a shared server.
package myproject;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import io.github.pulumiprivnet.privnet.DnsRecord;
import io.github.pulumiprivnet.privnet.DnsRecordArgs;
import io.github.pulumiprivnet.privnet.DnsZone;
import io.github.pulumiprivnet.privnet.DnsZoneArgs;
import io.github.pulumiprivnet.privnet.Group;
import io.github.pulumiprivnet.privnet.GroupArgs;
import io.github.pulumiprivnet.privnet.Policy;
import io.github.pulumiprivnet.privnet.PolicyArgs;
import io.github.pulumiprivnet.privnet.PrivnetFunctions;
import io.github.pulumiprivnet.privnet.SetupKey;
import io.github.pulumiprivnet.privnet.SetupKeyArgs;
import io.github.pulumiprivnet.privnet.inputs.GetGroupArgs;
import io.github.pulumiprivnet.privnet.inputs.PolicyRuleArgs;
import java.util.List;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var prefix = config.require("prefix");
        var team = new Group("team", GroupArgs.builder().name(config.require("team")).build());
        var servers = new Group("servers", GroupArgs.builder().name(prefix + "-servers").build());
        new Policy("team-to-servers", PolicyArgs.builder()
            .name(prefix + " team to servers")
            .enabled(true)
            .rules(PolicyRuleArgs.builder()
                .name("ssh")
                .enabled(true)
                .action("accept")
                .bidirectional(false)
                .protocol("tcp")
                .ports("22")
                .sources(team.id().applyValue(List::of))
                .destinations(servers.id().applyValue(List::of))
                .build())
            .build());
        var key = new SetupKey("enroll", SetupKeyArgs.builder()
            .name(prefix + " enroll")
            .type("reusable")
            .expiresIn(30 * 86400)
            .autoGroups(servers.id().applyValue(List::of))
            .usageLimit(0)
            .build());
        var zone = new DnsZone("internal", DnsZoneArgs.builder()
            .name(prefix + "-internal")
            .domain(prefix + ".internal.example.com")
            .enableSearchDomain(false)
            .distributionGroups(team.id().applyValue(List::of))
            .build());
        new DnsRecord("db", DnsRecordArgs.builder()
            .zoneId(zone.id())
            .name("db." + prefix + ".internal.example.com")
            .type("A")
            .content("10.20.0.10")
            .ttl(300)
            .build());
        var everyone = PrivnetFunctions.getGroup(GetGroupArgs.builder().name("All").build());
        ctx.export("teamGroupId", team.id());
        ctx.export("everyoneGroupId", everyone.applyValue(g -> g.id()));
        ctx.export("setupKey", key.key());
    }
}
