// Command sdkgen binds a Pulumi package schema and writes the SDK of one language from it, with the code
// generators that ship in github.com/pulumi/pulumi/pkg/v3 (the module the engine is built from, at the same
// version):
//
//	sdkgen SCHEMA.json python|go OUT_DIR
//
// `pulumi package gen-sdk` does the same through each language's plugin (pulumi-language-python, ...), which the
// Go module proxy does not serve; the generators themselves are in pkg/v3. Binding checks the schema the way the
// engine does: an invalid schema fails here with the engine's diagnostics. OUT_DIR is replaced.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-privnet sdkgen"

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: sdkgen SCHEMA.json python|go OUT_DIR"))
	}
	schemaPath, language, out := os.Args[1], os.Args[2], os.Args[3]
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		fail(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		fail(fmt.Errorf("%s: %w", schemaPath, err))
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if diags.HasErrors() || err != nil {
		for _, d := range diags {
			fmt.Fprintf(os.Stderr, "sdkgen: %s: %s\n", schemaPath, d.Error())
		}
		if err == nil {
			err = fmt.Errorf("the schema does not bind")
		}
		fail(err)
	}
	for _, d := range diags {
		fmt.Fprintf(os.Stderr, "sdkgen: warning: %s: %s\n", schemaPath, d.Error())
	}
	var files map[string][]byte
	switch language {
	case "python":
		files, err = python.GeneratePackage(tool, pkg, nil, noPackages{})
	case "go":
		files, err = gogen.GeneratePackage(tool, pkg, nil)
	default:
		err = fmt.Errorf("unknown language %q (python or go)", language)
	}
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
	fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
	os.Exit(1)
}

// noPackages is the loader of a schema that refers to no other package: it loads none (a reference to another
// package is an error, not a download).
type noPackages struct{}

func (noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q: sdkgen loads no other package", name)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q: sdkgen loads no other package", name)
}

func (l noPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}
