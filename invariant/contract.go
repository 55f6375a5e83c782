package invariant

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// SchemaVersion is the version of the contract file format: the JSON
// written by culprit mine -format json and read by culprit check
// (documented in docs/mine.md).
const SchemaVersion = 1

// Contracts are mined (or hand-written) specifications: the contract file.
type Contracts struct {
	Version    int     `json:"version"`
	Confidence float64 `json:"confidence,omitempty"` // the -conf limit they were mined with
	Contrast   bool    `json:"contrast,omitempty"`   // failing calls' invariants that passing calls violate
	Functions  []*Spec `json:"functions"`
}

// Spec is the specification of one function.
type Spec struct {
	Name     string   `json:"name"` // package path and function, or Type.Method
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Params   []string `json:"params,omitempty"`   // receiver first, then the arguments
	Results  []string `json:"results,omitempty"`  // result names as invariants use them
	Calls    int      `json:"calls"`              // calls learned from
	Returned int      `json:"returned,omitempty"` // of those, calls that returned (the postconditions' samples)
	Pre      []string `json:"pre"`                // preconditions: Go expressions over the parameters
	Post     []string `json:"post"`               // postconditions: over the parameters (at entry) and the results
	// Types counts the dynamic types seen per parameter and result
	// ("int", "string", "*bytes.Buffer", "nil"...).
	Types map[string]map[string]int `json:"types,omitempty"`
}

// Function returns the specification of the function named name, or nil.
func (c *Contracts) Function(name string) *Spec {
	for _, s := range c.Functions {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Write writes c as indented JSON.
func (c *Contracts) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("write contracts: %w", err)
	}
	return nil
}

// Read reads a contract file and checks that its invariants parse.
func Read(r io.Reader) (*Contracts, error) {
	var c Contracts
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("read contracts: %w", err)
	}
	if c.Version != SchemaVersion {
		return nil, fmt.Errorf("read contracts: version %d, want %d", c.Version, SchemaVersion)
	}
	for _, s := range c.Functions {
		if s.Name == "" {
			return nil, fmt.Errorf("read contracts: a function without a name")
		}
		for _, list := range [][]string{s.Pre, s.Post} {
			for _, src := range list {
				if _, err := Parse(src); err != nil {
					return nil, fmt.Errorf("read contracts: %s: %w", s.Name, err)
				}
			}
		}
	}
	return &c, nil
}

// ReadFile reads the contract file name.
func ReadFile(name string) (*Contracts, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read contracts: %w", err)
	}
	defer f.Close()
	c, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}
