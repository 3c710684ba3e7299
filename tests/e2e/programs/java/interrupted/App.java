// A Java program, through the resource plugin, that a killed `pulumi up` leaves half done (the Java runner of
// tests/e2e/interrupted-plugin.ts; the same resources as its YAML program and tests/e2e/programs/python-interrupted):
// `groups` groups (unique names) and `policies` policies (names may repeat: policy i and i + policies/2 are
// identical; their rules use the first ten groups only, so policies are created while later groups still are).
// Stack config: prefix, groups, policies.
package myproject;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import io.github.pulumiprivnet.privnet.Group;
import io.github.pulumiprivnet.privnet.GroupArgs;
import io.github.pulumiprivnet.privnet.Policy;
import io.github.pulumiprivnet.privnet.PolicyArgs;
import io.github.pulumiprivnet.privnet.inputs.PolicyRuleArgs;
import java.util.ArrayList;
import java.util.List;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var prefix = config.require("prefix");
        var groupCount = config.requireInteger("groups");
        var policyCount = config.requireInteger("policies");
        var groups = new ArrayList<Group>();
        for (int i = 0; i < groupCount; i++)
            groups.add(new Group("g" + i, GroupArgs.builder().name(prefix + "-g" + i).build()));
        var ruled = Math.min(10, groupCount);
        var half = Math.max(1, (policyCount + 1) / 2);
        for (int i = 0; i < policyCount; i++) {
            var n = i % half;
            var rule = PolicyRuleArgs.builder()
                .name("ssh")
                .enabled(true)
                .action("accept")
                .bidirectional(false)
                .protocol("tcp")
                .ports("22")
                .sources(groups.get(n % ruled).id().applyValue(List::of))
                .destinations(groups.get((n + 1) % ruled).id().applyValue(List::of))
                .build();
            new Policy("p" + i, PolicyArgs.builder().name(prefix + "-p" + n).enabled(true).rules(rule).build());
        }
    }
}
