package prose

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// prefilterTexts are texts around the prefilter's edges: openers in every
// case, inside longer words and joined words, after non-ASCII bytes.
var prefilterTexts = []string{
	"", "Note the result in the thread.", "Do step 4 of the **procedure** with care.",
	"GO TO STEP 4.", "Go-to step 4.", "going to step 4", "ago, go", "#go to 4", "Undone. Until done.",
	"Then STOP.", "wait", "Waiting for approval.", "Proceed—to step 2", "“go to step 1”", "go’s", "ſkip to step 2",
	"s\u212aip to step 2", "F\u0130NISHED", "If not, stop. Repeat until done. Wait for approval.",
	"You are finished here.", "Retry (at most 3 times).", "Begin again from step 1.", "resume at step 2",
	"Continue to the next step even if a previous step fails.", "x" + strings.Repeat("a", 40) + " jump to 2",
}

// TestPrefilter: Read with the prefilter reads what the reader reads
// without it, on the texts above, every FuzzRead seed and every line and
// paragraph of the repository's skills.
func TestPrefilter(t *testing.T) {
	texts := prefilterCorpus(t)
	skipped := 0
	var b Buffer
	for _, text := range texts {
		want := b.read(text, ctx)
		if got := b.Read(text, ctx); !reflect.DeepEqual(got, want) {
			t.Errorf("Read(%q) = %s, the reader says %s", text, show(got), show(want))
		}
		if !mayAct(text) {
			skipped++
		}
	}
	if skipped == 0 || skipped == len(texts) {
		t.Errorf("the prefilter skipped %d of %d texts", skipped, len(texts))
	}
}

// FuzzPrefilter: the prefilter never hides what the reader reads.
func FuzzPrefilter(f *testing.F) {
	for _, s := range prefilterTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var b Buffer
		if want := b.read(text, ctx); !reflect.DeepEqual(Read(text, ctx), want) {
			t.Fatalf("Read(%q) differs from the reader's %s", text, show(want))
		}
	})
}

// TestOpeners: openers lists exactly the words opensAction accepts, the
// string literals of opensAction, isActionVerb and moveVerb.
func TestOpeners(t *testing.T) {
	f, err := parser.ParseFile(gotoken.NewFileSet(), "action.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && (fn.Name.Name == "opensAction" || fn.Name.Name == "isActionVerb" || fn.Name.Name == "moveVerb") {
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if l, ok := n.(*ast.BasicLit); ok && l.Kind == gotoken.STRING {
					w, _ := strconv.Unquote(l.Value)
					words = append(words, w)
				}
				return true
			})
		}
	}
	slices.Sort(words)
	want := slices.Sorted(slices.Values(openers))
	if !slices.Equal(words, want) {
		t.Errorf("opensAction accepts %q, openers are %q", words, want)
	}
	for _, w := range openers {
		if !opensAction(w) || !mayAct(strings.ToUpper(w)) {
			t.Errorf("opener %q: opensAction %v, mayAct(%q) %v", w, opensAction(w), strings.ToUpper(w), mayAct(strings.ToUpper(w)))
		}
	}
}

// TestHasPrefixFold holds hasPrefixFold to strings.EqualFold on the
// condition openers it is given.
func TestHasPrefixFold(t *testing.T) {
	for _, p := range []string{"if ", "when ", "unless ", "in case "} {
		for _, s := range []string{"", "i", "If ", "IF it fails", "if", "When ", "WHEN x", "Unless ", "In case ", "IN CASE of",
			"ıf ", "İf ", "\u212aif", "where ", "ﬁ "} {
			want := len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
			if got := hasPrefixFold(s, p); got != want {
				t.Errorf("hasPrefixFold(%q, %q) = %v, want %v", s, p, got, want)
			}
		}
	}
}

// TestRemediesPrefilter: AfterRemedies and InOrder with their prefilters
// read what they read without, on the texts of TestPrefilter and remedy
// sentences in other cases and spellings.
func TestRemediesPrefilter(t *testing.T) {
	texts := append(prefilterCorpus(t), "If none of the previous steps helped, try rebooting.", "IF NONE OF THE PREVIOUS STEPS HELPED, reboot.",
		"When those fixes fail, call support.", "If you're still stuck after trying all of these steps, reach out.",
		"If the above workarounds did not help, file a bug.", "If the above wor\u212aarounds did not help, file a bug.",
		"İf none of the prevİous steps helped, reboot.", "Whenever the earlier options fail", "if", "these",
		"Use these options, in order:", "TRY THE FOLLOWING FIXES ONE AT A TIME", "Try these workarounds in turn.",
		"Try these wor\u212aarounds one by one.", "Try these methods in ORDER", "in", "one")
	skipped, found := 0, 0
	for _, text := range texts {
		a, z, ok := AfterRemedies(text)
		wa, wz, wok := afterRemedies(text)
		if a != wa || z != wz || ok != wok {
			t.Errorf("AfterRemedies(%q) = %d, %d, %v; without the prefilter %d, %d, %v", text, a, z, ok, wa, wz, wok)
		}
		if !mayFollowRemedies(text) {
			skipped++
		}
		if wok {
			found++
		}
		a, z, ok = InOrder(text)
		if wa, wz, wok := inOrder(text); a != wa || z != wz || ok != wok {
			t.Errorf("InOrder(%q) = %d, %d, %v; without the prefilter %d, %d, %v", text, a, z, ok, wa, wz, wok)
		}
	}
	if skipped == 0 || skipped == len(texts) || found == 0 {
		t.Errorf("the prefilter skipped %d of %d texts, %d found", skipped, len(texts), found)
	}
}

// FuzzRemediesPrefilter: the prefilters never hide what AfterRemedies and
// InOrder read.
func FuzzRemediesPrefilter(f *testing.F) {
	for _, s := range prefilterTexts {
		f.Add(s)
	}
	f.Add("If none of the previous steps helped, try rebooting.")
	f.Add("Use these options, in order:")
	f.Fuzz(func(t *testing.T, text string) {
		a, z, ok := AfterRemedies(text)
		if wa, wz, wok := afterRemedies(text); a != wa || z != wz || ok != wok {
			t.Fatalf("AfterRemedies(%q) = %d, %d, %v; without the prefilter %d, %d, %v", text, a, z, ok, wa, wz, wok)
		}
		a, z, ok = InOrder(text)
		if wa, wz, wok := inOrder(text); a != wa || z != wz || ok != wok {
			t.Fatalf("InOrder(%q) = %d, %d, %v; without the prefilter %d, %d, %v", text, a, z, ok, wa, wz, wok)
		}
	})
}

// prefilterCorpus is prefilterTexts and every skill of the repository's
// testdata, whole, by line and by paragraph.
func prefilterCorpus(t *testing.T) []string {
	t.Helper()
	texts := append([]string(nil), prefilterTexts...)
	err := filepath.WalkDir("../../testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		texts = append(texts, string(src))
		texts = append(texts, strings.Split(string(src), "\n")...)
		texts = append(texts, strings.Split(string(src), "\n\n")...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts
}
