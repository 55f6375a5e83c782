package changes

import (
	"archive/tar"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// A Version is one side of the comparison: a git revision of a
// repository or a directory.
type Version struct {
	Spec    string // as the user gave it
	Dir     string // the directory, absolute; "" for a revision
	Rev     string // the commit's full hash; "" for a directory
	Subject string // the commit's subject
}

func (v Version) String() string {
	if v.Rev != "" {
		return short(v.Rev)
	}
	return v.Dir
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// A Repo is the git repository holding the current directory.
type Repo struct {
	Root   string // the work tree's top directory
	Prefix string // the current directory, relative to Root (slash, "" at the top)
}

// ErrNoGit is wrapped when a revision is given and git, or a repository,
// is missing.
var ErrNoGit = errors.New("no git repository")

// OpenRepo finds the repository holding dir.
func OpenRepo(dir string) (*Repo, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("%w: git is not installed (%v)", ErrNoGit, err)
	}
	cmd := exec.Command("git", "rev-parse", "--show-toplevel", "--show-prefix")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w at %s", ErrNoGit, dir)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	r := &Repo{Root: lines[0]}
	if len(lines) > 1 {
		r.Prefix = strings.TrimSuffix(lines[1], "/")
	}
	return r, nil
}

// git runs a git command in the repository and returns its standard
// output; its error holds git's first line of standard error.
func (r *Repo) git(stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Root
	cmd.Stdin = stdin
	// Never let git write: no index refresh, no auto-gc, no lock.
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}

// ErrUnknownRevision is wrapped when a revision does not name a commit.
var ErrUnknownRevision = errors.New("unknown revision")

// Resolve names a commit of the repository.
func (r *Repo) Resolve(spec string) (Version, error) {
	out, err := r.git(nil, "rev-parse", "--verify", "--quiet", "--end-of-options", spec+"^{commit}")
	if err != nil {
		return Version{}, fmt.Errorf("%w %q", ErrUnknownRevision, spec)
	}
	v := Version{Spec: spec, Rev: strings.TrimSpace(string(out))}
	v.Subject = r.subject(v.Rev)
	return v, nil
}

func (r *Repo) subject(rev string) string {
	out, err := r.git(nil, "log", "-1", "--format=%s", rev)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Dirty reports whether the work tree or the index differ from HEAD in
// tracked files.
func (r *Repo) Dirty() (bool, error) {
	out, err := r.git(nil, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return false, err
	}
	return len(bytes.TrimSpace(out)) > 0, nil
}

// Commits lists the commits of good..bad, oldest first, following first
// parents (a merge is one commit); nil when good is not an ancestor of
// bad.
func (r *Repo) Commits(good, bad Version) ([]Version, error) {
	if _, err := r.git(nil, "merge-base", "--is-ancestor", good.Rev, bad.Rev); err != nil {
		return nil, nil
	}
	out, err := r.git(nil, "rev-list", "--first-parent", "--reverse", "--format=%H %s", good.Rev+".."+bad.Rev)
	if err != nil {
		return nil, err
	}
	var vs []Version
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" || strings.HasPrefix(line, "commit ") {
			continue
		}
		hash, subject, _ := strings.Cut(line, " ")
		vs = append(vs, Version{Spec: hash, Rev: hash, Subject: subject})
	}
	return vs, nil
}

// Export writes the tree of a revision into dir with git archive.
func (r *Repo) Export(rev, dir string) error {
	cmd := exec.Command("git", "archive", "--format=tar", rev)
	cmd.Dir = r.Root
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	terr := untar(pipe, dir)
	io.Copy(io.Discard, pipe)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %v: %s", short(rev), err, strings.TrimSpace(stderr.String()))
	}
	return terr
}

func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) {
			continue
		}
		dst := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			os.Symlink(h.Linkname, dst)
		}
	}
}

// revChange computes the change between two revisions: the files git
// diff-tree lists, read with git cat-file.
func (r *Repo) revChange(good, bad string) (*Change, error) {
	out, err := r.git(nil, "diff-tree", "-r", "-z", "--no-renames", "--name-only", good, bad)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	var specs []string
	for _, p := range paths {
		specs = append(specs, good+":"+p, bad+":"+p)
	}
	blobs, err := r.catFiles(specs)
	if err != nil {
		return nil, err
	}
	var files []fileSides
	for i, p := range paths {
		g, b := blobs[2*i], blobs[2*i+1]
		files = append(files, fileSides{path: p, good: string(g), bad: string(b), goodExists: g != nil, badExists: b != nil})
	}
	return newChange(files), nil
}

// catFiles reads objects with git cat-file --batch; a missing one is nil.
func (r *Repo) catFiles(specs []string) ([][]byte, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, s := range specs {
		in.WriteString(s + "\n")
	}
	out, err := r.git(&in, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(out))
	res := make([][]byte, len(specs))
	for i := range specs {
		header, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: short output")
		}
		if strings.HasSuffix(header, " missing\n") || strings.HasSuffix(header, " ambiguous\n") {
			continue
		}
		f := strings.Fields(header)
		if len(f) < 3 {
			continue
		}
		if f[1] != "blob" {
			continue
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %q", header)
		}
		data := make([]byte, n+1)
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, fmt.Errorf("git cat-file: short output")
		}
		res[i] = data[:n]
	}
	return res, nil
}

// dirChange computes the change between two directories' regular files
// (.git left aside).
func dirChange(good, bad string) (*Change, error) {
	gf, err := listDir(good)
	if err != nil {
		return nil, err
	}
	bf, err := listDir(bad)
	if err != nil {
		return nil, err
	}
	all := map[string]bool{}
	for p := range gf {
		all[p] = true
	}
	for p := range bf {
		all[p] = true
	}
	var files []fileSides
	for p := range all {
		fs := fileSides{path: p, goodExists: gf[p], badExists: bf[p]}
		if fs.goodExists {
			data, err := os.ReadFile(filepath.Join(good, filepath.FromSlash(p)))
			if err != nil {
				return nil, err
			}
			fs.good = string(data)
		}
		if fs.badExists {
			data, err := os.ReadFile(filepath.Join(bad, filepath.FromSlash(p)))
			if err != nil {
				return nil, err
			}
			fs.bad = string(data)
		}
		if fs.goodExists == fs.badExists && fs.good == fs.bad {
			continue
		}
		files = append(files, fs)
	}
	return newChange(files), nil
}

// listDir lists the regular files below dir as slash paths, leaving out
// .git.
func listDir(dir string) (map[string]bool, error) {
	out := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = true
		return nil
	})
	return out, err
}

// copyTree copies the regular files below from into to (.git left
// aside).
func copyTree(from, to string) error {
	files, err := listDir(from)
	if err != nil {
		return err
	}
	for p := range files {
		src, dst := filepath.Join(from, filepath.FromSlash(p)), filepath.Join(to, filepath.FromSlash(p))
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		info, err := os.Stat(src)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()|0o200); err != nil {
			return err
		}
	}
	return nil
}
