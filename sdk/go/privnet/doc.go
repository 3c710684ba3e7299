// Manages a private overlay network (peers, groups, access policies, routes, networks, DNS, setup keys, users and integrations) through its management API.
package privnet
