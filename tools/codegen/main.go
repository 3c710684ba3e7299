// Command codegen runs the code generators that left pulumi/pulumi after v3.143.0, at that version (this
// module pins github.com/pulumi/pulumi/pkg/v3 v3.143.0 and, through it, github.com/pulumi/pulumi-java/pkg
// v0.19.0; the Go module proxy serves both):
//
//	codegen docs   SCHEMA.json OUT_DIR   the API docs (pkg/v3/codegen/docs), which the registry's pages come from
//	codegen dotnet SCHEMA.json OUT_DIR   the .NET SDK (pkg/v3/codegen/dotnet)
//	codegen java   SCHEMA.json OUT_DIR   the Java SDK (pulumi-java/pkg/codegen/java)
//
// The docs generator writes Hugo-flavoured markdown, one `_index.md` per resource and function and the package's
// `_index.md`; scripts/apidocs.ts turns them into docs/api/. OUT_DIR is replaced.
package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	javagen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/docs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-privnet codegen"

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: codegen docs|dotnet|java SCHEMA.json OUT_DIR"))
	}
	what, schemaPath, out := os.Args[1], os.Args[2], os.Args[3]
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
			fmt.Fprintf(os.Stderr, "codegen: %s: %s\n", schemaPath, d.Error())
		}
		if err == nil {
			err = fmt.Errorf("the schema does not bind")
		}
		fail(err)
	}
	var files map[string][]byte
	switch what {
	case "docs":
		files, err = docs.NewContext(tool, pkg).GeneratePackage()
	case "dotnet":
		// The .NET generator downloads the package's logo (pkg.LogoURL, else Pulumi's) to ship in the NuGet
		// package; this machine reaches no web site. It gets the package's own logo instead, and nothing else.
		pkg.LogoURL = logoURL
		http.DefaultTransport = logoOnly{}
		if err = pkg.ImportLanguages(map[string]schema.Language{"csharp": dotnet.Importer}); err == nil {
			files, err = dotnet.GeneratePackage(tool, pkg, nil, nil)
		}
	case "java":
		if err = pkg.ImportLanguages(map[string]schema.Language{"java": javagen.Importer}); err == nil {
			files, err = javagen.GeneratePackage(tool, pkg, nil, false)
		}
	default:
		err = fmt.Errorf("unknown output %q (docs, dotnet or java)", what)
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

// The package's logo (tools/codegen/logo.png), which the .NET package ships as its icon.
//
//go:embed logo.png
var logo []byte

const logoURL = "https://pulumi-privnet.invalid/logo.png"

// logoOnly answers the logo's URL with the logo, and every other request with an error.
type logoOnly struct{}

func (logoOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.String() != logoURL {
		return nil, fmt.Errorf("codegen fetches nothing from the network (%s)", r.URL)
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": []string{"image/png"}},
		Body:       io.NopCloser(bytes.NewReader(logo)),
		Request:    r,
	}, nil
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
	os.Exit(1)
}
