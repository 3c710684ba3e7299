// A Java program (through the resource plugin) whose config decides the access it grants, for the access guard's
// tests (tests/e2e/access-guard-languages.test.ts); the same resources as tests/e2e/programs/access-guard-yaml:
//   db         the id of the account's database group
//   sources    the group ids that policy "java app to db" lets reach the database on tcp/5432
//   opsPeers   the peers of a new group "java-ops", which reaches the database on tcp/22 (default none)
package myproject;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import io.github.pulumiprivnet.privnet.Group;
import io.github.pulumiprivnet.privnet.GroupArgs;
import io.github.pulumiprivnet.privnet.Policy;
import io.github.pulumiprivnet.privnet.PolicyArgs;
import io.github.pulumiprivnet.privnet.inputs.PolicyRuleArgs;
import java.util.List;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var db = config.require("db");
        var sources = List.of(config.requireObject("sources", String[].class));
        var opsPeers = List.of(config.getObject("opsPeers", String[].class).orElse(new String[0]));
        var ops = new Group("ops", GroupArgs.builder().name("java-ops").peers(opsPeers).build());
        new Policy("appToDb", PolicyArgs.builder()
            .name("java app to db")
            .enabled(true)
            .rules(PolicyRuleArgs.builder()
                .name("postgres")
                .enabled(true)
                .action("accept")
                .bidirectional(false)
                .protocol("tcp")
                .ports("5432")
                .sources(sources)
                .destinations(db)
                .build())
            .build());
        new Policy("opsSsh", PolicyArgs.builder()
            .name("java ops ssh")
            .enabled(true)
            .rules(PolicyRuleArgs.builder()
                .name("ssh")
                .enabled(true)
                .action("accept")
                .bidirectional(false)
                .protocol("tcp")
                .ports("22")
                .sources(ops.id().applyValue(List::of))
                .destinations(db)
                .build())
            .build());
    }
}
