package command

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// A File is one file of an Input.
type File struct {
	// Path is slash-separated and relative to the input's root; for a
	// single-file input it is the file's base name.
	Path string
	Data []byte
	Mode fs.FileMode // permission bits
}

// An Input is a file or a directory tree, read into memory.
type Input struct {
	Name  string // base name of the file or directory
	Dir   bool   // the input is a directory
	Files []File // sorted by Path; exactly one for a single file
}

// Read reads the file or directory at path. A directory's regular files
// are read recursively; symbolic links and other special files are an
// error, since a candidate could not reproduce them.
func Read(path string) (*Input, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	in := &Input{Name: filepath.Base(filepath.Clean(path)), Dir: info.IsDir()}
	if !in.Dir {
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		in.Files = []File{{Path: in.Name, Data: data, Mode: info.Mode().Perm()}}
		return in, nil
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return err
		}
		in.Files = append(in.Files, File{Path: filepath.ToSlash(rel), Data: data, Mode: info.Mode().Perm()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(in.Files, func(i, j int) bool { return in.Files[i].Path < in.Files[j].Path })
	return in, nil
}

// Size is the input's total number of bytes.
func (in *Input) Size() int {
	n := 0
	for _, f := range in.Files {
		n += len(f.Data)
	}
	return n
}

// selection is a subset of an input: which files exist and which bytes
// of each (as ranges of the original) they keep.
type selection []fileSel

type fileSel struct {
	present bool
	spans   []Span // sorted, disjoint, non-empty ranges of the original file
}

// all selects the whole input.
func (in *Input) all() selection {
	sel := make(selection, len(in.Files))
	for i, f := range in.Files {
		sel[i].present = true
		if len(f.Data) > 0 {
			sel[i].spans = []Span{{0, len(f.Data)}}
		}
	}
	return sel
}

// none selects the empty input: no files for a directory, an empty file
// otherwise.
func (in *Input) none() selection {
	sel := make(selection, len(in.Files))
	if !in.Dir {
		sel[0].present = true
	}
	return sel
}

// size is the selection's number of bytes.
func (s selection) size() int {
	n := 0
	for _, f := range s {
		if f.present {
			for _, sp := range f.spans {
				n += sp.End - sp.Start
			}
		}
	}
	return n
}

// weight orders selections by inclusion: a strict subset weighs less.
func (s selection) weight() int {
	n := s.size()
	for _, f := range s {
		if f.present {
			n++
		}
	}
	return n
}

// files materializes the selection: the present files and their kept
// bytes.
func (in *Input) files(s selection) []File {
	var out []File
	for i, f := range s {
		if !f.present {
			continue
		}
		orig := in.Files[i]
		var data []byte
		for _, sp := range f.spans {
			data = append(data, orig.Data[sp.Start:sp.End]...)
		}
		out = append(out, File{Path: orig.Path, Data: data, Mode: orig.Mode})
	}
	return out
}
