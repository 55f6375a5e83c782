package changes

import (
	"context"
	"os/exec"
	"testing"
)

// TestChecker: the in-process check accepts the good and the bad sides
// and the candidates that build, and rejects those that do not, new
// imports of the bad side included.
func TestChecker(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.21\n",
		"calc.go":      calcV1,
		"calc_test.go": calcTest,
		"use/use.go":   "package use\n\nimport \"example.com/calc\"\n\nvar X = calc.Add(1, 2)\n",
	})
	ch := newChange([]fileSides{{path: "calc.go", good: calcV1, bad: calcBig, goodExists: true, badExists: true}})
	s := &session{jobs: 1}
	r, err := s.newRunner(dir, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	check := newChecker(context.Background(), r, ch, nil)
	if check == nil {
		t.Fatal("no checker")
	}
	for _, u := range ch.Units(Hunks, ch.All()) {
		contents := ch.Apply(u)
		got := check(ch, contents)
		// Expected: the hunk that only changes abs's condition, and
		// Sub's, build; the hunks of the renaming and the new import
		// do not.
		data := contents["calc.go"].Data
		want := buildsWithGo(t, dir, data)
		if got != want {
			t.Errorf("check = %v, go build says %v, on:\n%s", got, want, data)
		}
	}
}

// buildsWithGo tells whether the module at dir builds with calc.go's
// content replaced (through an overlay).
func buildsWithGo(t *testing.T, dir, calc string) bool {
	t.Helper()
	tmp := t.TempDir()
	writeFiles(t, tmp, map[string]string{
		"calc.go":      calc,
		"overlay.json": `{"Replace": {"` + dir + `/calc.go": "` + tmp + `/calc.go"}}`,
	})
	cmd := exec.Command("go", "build", "-overlay", tmp+"/overlay.json", "./...")
	cmd.Dir = dir
	return cmd.Run() == nil
}
