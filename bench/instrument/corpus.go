//go:build unix

package main

import (
	"strings"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

// entry is one module of the proof, with how it is set up and what it
// covers.
type entry struct {
	proof.Module
	// Flags are go test flags of every run of the module (-short where
	// its long tests would take minutes and prove nothing more).
	Flags []string
	// Layout rearranges the copy before it runs: "vendor" (go mod vendor:
	// its dependencies come from vendor/), "work" (a go.work workspace
	// above it holds it) or "nested" (a module of its own in a
	// subdirectory, which ./... leaves out and the instrumenter must too).
	Layout string
	// Hazards name the shapes of code the module brings to the
	// instrumenter (see hazards below).
	Hazards []string
	// Why names why only some packages run, when they do.
	Why string
}

// hazards are the shapes of real Go code the corpus covers on purpose,
// each with what it means.
var hazards = map[string]string{
	"oldgo":     "go.mod declares Go 1.12 to 1.17, or no go line (1.16)",
	"cgo":       "cgo files (import \"C\")",
	"asm":       "assembly-backed functions (.s files, bodiless declarations)",
	"linkname":  "//go:linkname directives",
	"tags":      "build constraints (//go:build)",
	"xtest":     "external _test packages",
	"testmain":  "TestMain",
	"parallel":  "t.Parallel, t.Cleanup",
	"fuzz":      "fuzz targets with seeds (f.Add)",
	"generics":  "generics-heavy code",
	"bigfile":   "generated files over 1 MB",
	"line":      "//line directives (goyacc output)",
	"gowork":    "a go.work workspace",
	"vendor":    "a vendor directory",
	"nested":    "a nested module",
	"loopback":  "tests that start servers on loopback",
	"examples":  "examples with // Output: comments",
	"generated": "generated code (protobuf, stringer, tables)",
}

// earlier are the hazards the sixteen modules of proof.Modules bring.
var earlier = map[string][]string{
	"github.com/google/uuid":             {"oldgo"},
	"github.com/google/go-cmp":           {"tags", "xtest", "examples"},
	"github.com/BurntSushi/toml":         {"tags", "xtest"},
	"gopkg.in/yaml.v3":                   {"oldgo"},
	"github.com/pkg/errors":              {"oldgo", "examples"},
	"golang.org/x/text":                  {"generated", "tags", "examples"},
	"github.com/cespare/xxhash/v2":       {"asm", "tags"},
	"github.com/hashicorp/golang-lru/v2": {"generics", "examples"},
	"github.com/pmezard/go-difflib":      {"oldgo", "examples"},
}

// corpus returns the modules of the proof: the sixteen of proof.Modules,
// then those of issue 16, in that order.
func corpus() []entry {
	var out []entry
	for _, m := range proof.Modules() {
		e := entry{Module: m, Hazards: earlier[m.Path]}
		switch m.Path {
		case "github.com/pmezard/go-difflib":
			e.Flags, e.Why = []string{"-vet=off"}, "its examples fail vet with current Go"
		case "golang.org/x/text":
			e.Why = "the packages of the first proof (issue 1): Unicode tables"
		}
		out = append(out, e)
	}
	return append(out, []entry{
		{Module: proof.Module{Path: "github.com/spf13/cobra"}, Hazards: []string{"oldgo", "examples", "tags"}},
		{Module: proof.Module{Path: "github.com/spf13/cobra"}, Layout: "vendor", Hazards: []string{"vendor", "oldgo"}},
		{Module: proof.Module{Path: "github.com/spf13/viper"}, Hazards: []string{"tags", "xtest"}},
		{Module: proof.Module{Path: "github.com/stretchr/testify"}, Hazards: []string{"parallel", "tags"}},
		{Module: proof.Module{Path: "github.com/sirupsen/logrus"}, Hazards: []string{"parallel", "examples", "xtest"}},
		{Module: proof.Module{Path: "go.uber.org/zap"}, Hazards: []string{"testmain", "fuzz", "parallel", "loopback", "examples"}},
		{Module: proof.Module{Path: "go.uber.org/multierr"}, Hazards: []string{"examples", "xtest"}},
		{Module: proof.Module{Path: "github.com/gorilla/mux"}, Hazards: []string{"parallel", "loopback", "examples"}},
		{Module: proof.Module{Path: "github.com/gorilla/websocket"}, Hazards: []string{"oldgo", "loopback"}},
		{Module: proof.Module{Path: "github.com/go-chi/chi/v5"}, Hazards: []string{"parallel", "loopback", "examples"}},
		{Module: proof.Module{Path: "github.com/labstack/echo/v4"}, Hazards: []string{"fuzz", "parallel", "loopback", "examples"}},
		{Module: proof.Module{Path: "github.com/gin-gonic/gin"}, Hazards: []string{"loopback", "examples", "tags"}},
		{Module: proof.Module{Path: "github.com/julienschmidt/httprouter"}, Hazards: []string{"oldgo"}},
		{Module: proof.Module{Path: "golang.org/x/net", Packages: []string{"./html", "./http2/hpack", "./idna", "./netutil", "./publicsuffix"}},
			Hazards: []string{"loopback", "fuzz", "tags", "generated", "examples"}, Why: "712 files; five packages without network"},
		{Module: proof.Module{Path: "golang.org/x/crypto", Packages: []string{"./chacha20", "./blake2b", "./argon2", "./bcrypt", "./salsa20/..."}},
			Hazards: []string{"asm", "tags", "xtest"}, Why: "42 test packages; the assembly-backed ones and two pure"},
		{Module: proof.Module{Path: "golang.org/x/exp", Packages: []string{"./slices", "./maps", "./constraints", "./rand", "./slog"}},
			Hazards: []string{"generics", "examples", "xtest"}, Why: "24 test packages; the generic ones and slog"},
		{Module: proof.Module{Path: "golang.org/x/sync"}, Hazards: []string{"parallel", "examples", "generics"}},
		{Module: proof.Module{Path: "golang.org/x/mod"}, Hazards: []string{"fuzz", "parallel", "examples"}},
		{Module: proof.Module{Path: "google.golang.org/protobuf", Packages: []string{"./proto", "./encoding/protowire", "./encoding/prototext", "./encoding/protojson"}},
			Hazards: []string{"generated", "xtest", "tags"}, Why: "54 test packages; the encoders"},
		{Module: proof.Module{Path: "github.com/prometheus/client_golang", Packages: []string{"./prometheus/promhttp", "./prometheus/testutil", "./prometheus/push"}},
			Hazards: []string{"loopback", "examples"}, Why: "15 test packages; the HTTP ones"},
		{Module: proof.Module{Path: "go.etcd.io/bbolt", Packages: []string{"."}}, Flags: []string{"-short"},
			Hazards: []string{"testmain", "parallel", "tags", "xtest"}, Why: "the database package; its long tests skip with -short"},
		{Module: proof.Module{Path: "modernc.org/sqlite", Packages: []string{"./lib", "./vfs", "./pcache"}},
			Hazards: []string{"bigfile", "generated", "tags"}, Why: "the root package's SQL suite takes many minutes; lib (generated, files of 10 MB and more) is instrumented and built under vfs's tests"},
		{Module: proof.Module{Path: "github.com/mattn/go-sqlite3"}, Flags: []string{"-short"}, Hazards: []string{"cgo", "tags"}},
		{Module: proof.Module{Path: "github.com/jackc/pgx/v5", Packages: []string{"./pgproto3", "./internal/sanitize", "./internal/pgio", "./pgconn/ctxwatch"}},
			Hazards: []string{"fuzz", "parallel", "generics"}, Why: "the other packages' tests need a PostgreSQL server"},
		{Module: proof.Module{Path: "github.com/go-sql-driver/mysql"}, Hazards: []string{"fuzz", "parallel"}},
		{Module: proof.Module{Path: "github.com/json-iterator/go"}, Hazards: []string{"oldgo", "examples", "xtest"}},
		{Module: proof.Module{Path: "github.com/buger/jsonparser"}, Hazards: []string{"oldgo", "fuzz"}},
		{Module: proof.Module{Path: "github.com/valyala/fastjson"}, Hazards: []string{"examples", "tags"}},
		{Module: proof.Module{Path: "github.com/valyala/fasthttp", Packages: []string{"./fasthttputil", "./fasthttpadaptor", "./stackless", "./expvarhandler"}},
			Hazards: []string{"loopback", "parallel"}, Why: "the root package's suite takes minutes"},
		{Module: proof.Module{Path: "github.com/klauspost/compress", Packages: []string{"./flate", "./huff0", "./fse", "./s2"}}, Flags: []string{"-short"},
			Hazards: []string{"asm", "fuzz", "tags"}, Why: "19 test packages; zstd's suite takes minutes"},
		{Module: proof.Module{Path: "github.com/pierrec/lz4/v4"}, Flags: []string{"-short", "-skip", "^(TestCompressGolden|TestReaderWithRandomData|TestWriterToWithRandomData|TestFrameCorrupted)$"},
			Hazards: []string{"asm", "fuzz", "parallel"},
			Why:     "four tests that compress 100 MB of random data or every golden file (35 of the suite's 54 s plain) passed go test's 20-minute limit together with every event recorded at load 20"},
		{Module: proof.Module{Path: "github.com/golang/snappy"}, Hazards: []string{"asm", "oldgo"}},
		{Module: proof.Module{Path: "github.com/itchyny/gojq"}, Hazards: []string{"examples", "xtest"}},
		{Module: proof.Module{Path: "github.com/dop251/goja", Packages: []string{"./parser", "./file", "./ftoa", "./unistring", "./ast"}},
			Hazards: []string{"parallel"}, Why: "the interpreter's own suite takes minutes"},
		{Module: proof.Module{Path: "github.com/yuin/gopher-lua"}, Hazards: []string{"line", "generated"}},
		{Module: proof.Module{Path: "github.com/expr-lang/expr", Packages: []string{".", "./vm", "./parser", "./checker", "./compiler", "./builtin"}},
			Hazards: []string{"generics", "fuzz", "parallel", "xtest"}, Why: "55 test packages; the compiler's"},
		{Module: proof.Module{Path: "github.com/shopspring/decimal"}, Hazards: []string{"oldgo"}},
		{Module: proof.Module{Path: "github.com/go-playground/validator/v10", Packages: []string{"."}},
			Hazards: []string{"parallel"}, Why: "the other 24 test packages are translations"},
		{Module: proof.Module{Path: "github.com/fatih/color"}},
		{Module: proof.Module{Path: "github.com/rivo/uniseg"}, Hazards: []string{"bigfile", "generated", "fuzz", "examples"}},
		{Module: proof.Module{Path: "github.com/PuerkitoBio/goquery"}, Hazards: []string{"examples"}},
		{Module: proof.Module{Path: "github.com/robfig/cron/v3"}, Hazards: []string{"oldgo"}},
		{Module: proof.Module{Path: "github.com/golang-jwt/jwt/v5"}, Hazards: []string{"parallel", "examples", "xtest"}},
		{Module: proof.Module{Path: "github.com/gomarkdown/markdown"}, Hazards: []string{"fuzz"}},
		{Module: proof.Module{Path: "github.com/alecthomas/participle/v2"}, Hazards: []string{"generics", "examples", "xtest"}},
		{Module: proof.Module{Path: "github.com/hashicorp/hcl"}, Hazards: []string{"oldgo"}},
		{Module: proof.Module{Path: "github.com/cenkalti/backoff/v4"}, Flags: []string{"-vet=off"}, Hazards: []string{"examples"},
			Why: "its examples fail vet with current Go (ExampleRetryContext names no identifier)"},
		{Module: proof.Module{Path: "github.com/samber/lo", Packages: []string{"./mutable", "./internal/..."}}, Hazards: []string{"generics", "examples", "parallel"},
			Why: "its releases hold only the example tests, and those of the root and ./it do not build plain (they use helpers of test files the release leaves out)"},
		{Module: proof.Module{Path: "github.com/emirpasic/gods"}, Hazards: []string{"oldgo"}},
		{Module: proof.Module{Path: "github.com/bits-and-blooms/bitset"}, Hazards: []string{"oldgo", "fuzz", "examples"}},
		{Module: proof.Module{Path: "github.com/RoaringBitmap/roaring", Packages: []string{"./roaring64", "./BitSliceIndexing", "./internal"}},
			Hazards: []string{"oldgo", "asm", "parallel"},
			Why:     "the root package's suite (no test honours -short) passed go test's 20-minute limit with every event recorded at load 20; the 64-bit bitmaps run the root's code"},
		{Module: proof.Module{Path: "github.com/dgraph-io/ristretto"}, Hazards: []string{"linkname", "testmain", "asm"}},
		{Module: proof.Module{Path: "github.com/urfave/cli/v2"}, Hazards: []string{"parallel", "examples"}},
		{Module: proof.Module{Path: "github.com/alecthomas/kong"}, Hazards: []string{"xtest"}},
		{Module: proof.Module{Path: "github.com/kelseyhightower/envconfig"}, Flags: []string{"-vet=off"}, Hazards: []string{"oldgo", "testmain"},
			Why: "its tests fail vet with current Go (a %q verb with an int)"},
		{Module: proof.Module{Path: "github.com/google/uuid"}, Layout: "work", Hazards: []string{"gowork"}},
		{Module: proof.Module{Path: "github.com/Masterminds/semver/v3"}, Layout: "nested", Hazards: []string{"nested"}},
	}...)
}

// name is the entry's row name: the module path, with its layout.
func (e entry) name() string {
	if e.Layout == "" {
		return e.Path
	}
	return e.Path + " (" + e.Layout + ")"
}

// selectEntries returns the entries named in the comma-separated list
// (a module path, or a path with its layout in parentheses), all of the
// corpus when list is empty; a module not in the corpus runs whole.
func selectEntries(list string) []entry {
	all := corpus()
	if list == "" {
		return all
	}
	var out []entry
	for _, p := range strings.Split(list, ",") {
		found := false
		for _, e := range all {
			if e.name() == p || (e.Path == p && e.Layout == "") {
				out = append(out, e)
				found = true
				break
			}
		}
		if !found {
			out = append(out, entry{Module: proof.Module{Path: p}})
		}
	}
	return out
}
