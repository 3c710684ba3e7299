// Command docsgen writes the API docs of a Pulumi package schema with Pulumi's own docs generator
// (github.com/pulumi/pulumi/pkg/v3/codegen/docs, which the registry's pages come from). The generator left
// pulumi/pulumi after v3.143.0; this module pins that version:
//
//	docsgen SCHEMA.json OUT_DIR
//
// It writes the generator's pages as it renders them (Hugo-flavoured markdown, one `_index.md` per resource and
// function under OUT_DIR, and the package's `_index.md`); scripts/apidocs.ts turns them into docs/api/.
// OUT_DIR is replaced.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/pkg/v3/codegen/docs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-privnet docsgen"

func main() {
	if len(os.Args) != 3 {
		fail(fmt.Errorf("usage: docsgen SCHEMA.json OUT_DIR"))
	}
	schemaPath, out := os.Args[1], os.Args[2]
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		fail(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		fail(fmt.Errorf("%s: %w", schemaPath, err))
	}
	// The schema refers to no other package: a nil loader loads none.
	pkg, diags, err := schema.BindSpec(spec, nil)
	if diags.HasErrors() || err != nil {
		for _, d := range diags {
			fmt.Fprintf(os.Stderr, "docsgen: %s: %s\n", schemaPath, d.Error())
		}
		if err == nil {
			err = fmt.Errorf("the schema does not bind")
		}
		fail(err)
	}
	files, err := docs.NewContext(tool, pkg).GeneratePackage()
	if err != nil {
		fail(err)
	}
	if err := os.RemoveAll(out); err != nil {
		fail(err)
	}
	for name, content := range files {
		file := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			fail(err)
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "docsgen: %v\n", err)
	os.Exit(1)
}
