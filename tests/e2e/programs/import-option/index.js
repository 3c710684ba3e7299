"use strict";
// Pulumi's usual way to adopt an existing object: the `import` resource option. The engine's import step reads the
// object through the provider WITHOUT the resource's properties, so the dynamic-provider host gets no provider code
// (`__provider`) and cannot serve the read. tests/e2e/adopt.test.ts checks that this still fails; when it starts to
// work, examples/adopt can use it.
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const config = new pulumi.Config();
new privnet.Group("ops", { name: "ops" }, { import: config.require("groupId") });
