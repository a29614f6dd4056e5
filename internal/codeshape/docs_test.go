package codeshape

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxReadmeLines bounds the README: what gopari is, the set-up commands,
// a short tour and where to read more; the rest lives in docs/.
const maxReadmeLines = 400

// docFiles are the Markdown files a reader is sent to.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no docs/*.md found")
	}
	for _, p := range pages {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

var (
	linkRE = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeRE = regexp.MustCompile("`[^`]*`")
	// The seeds of the project's brief are papers; a reader knows them by
	// their authors and titles, never by the brief's numbers.
	seedRE = regexp.MustCompile(`(?i)\bseeds? *0\d\d\b|\bthe seed('s)?\b`)
)

// mdLine is one line of Markdown prose: code blocks are left out and
// inline code is blanked, so that what remains links only where a
// reader sees a link.
type mdLine struct {
	n    int
	text string
}

// prose returns the lines of a Markdown text outside fenced and
// indented code blocks, with inline code spans blanked.
func prose(text string) []mdLine {
	var out []mdLine
	fenced, indented, prevBlank := false, false, true
	for i, l := range strings.Split(text, "\n") {
		trim := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trim, "```"):
			fenced = !fenced
			prevBlank = false
			continue
		case fenced:
			continue
		case trim == "":
			prevBlank = true
			continue
		case strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t"):
			if prevBlank || indented {
				indented = true
				continue
			}
		default:
			indented = false
		}
		prevBlank = false
		out = append(out, mdLine{i + 1, codeRE.ReplaceAllString(l, "``")})
	}
	return out
}

// slug is the anchor GitHub gives a heading.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && isLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isLetter keeps accented letters in a slug, as GitHub does, and drops
// punctuation such as dashes and arrows.
func isLetter(r rune) bool {
	return strings.ContainsRune("àáâäçèéêëíîïñóôöúûüßæœ", r)
}

// anchors returns the anchors of a Markdown text's headings.
func anchors(text string) map[string]bool {
	got := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimLeft(l, "#")
		if !strings.HasPrefix(h, " ") {
			continue
		}
		s := slug(strings.ReplaceAll(h, "`", ""))
		if k := seen[s]; k > 0 {
			got[fmt.Sprintf("%s-%d", s, k)] = true
		} else {
			got[s] = true
		}
		seen[s]++
	}
	return got
}

// TestDocLinks checks that every relative link and image in README.md,
// CONTRIBUTING.md and docs/*.md names a file of the repository, and that
// an anchor names a heading of the page it points into.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	texts := map[string]string{}
	read := func(rel string) (string, bool) {
		if s, ok := texts[rel]; ok {
			return s, true
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return "", false
		}
		texts[rel] = string(b)
		return string(b), true
	}
	links := 0
	for _, file := range docFiles(t, root) {
		text, ok := read(file)
		if !ok {
			t.Errorf("%s: cannot read", file)
			continue
		}
		for _, l := range prose(text) {
			for _, m := range linkRE.FindAllStringSubmatch(l.text, -1) {
				links++
				if msg := checkLink(file, m[1], read); msg != "" {
					t.Errorf("%s:%d: link %s: %s", file, l.n, m[1], msg)
				}
			}
		}
	}
	if links < 20 {
		t.Errorf("only %d links found in the docs: is the link pattern still right?", links)
	}
}

// checkLink says what is wrong with target, a link in file, or "".
func checkLink(file, target string, read func(string) (string, bool)) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	path, anchor, _ := strings.Cut(target, "#")
	dest := file
	if path != "" {
		dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), path)))
		if strings.HasPrefix(dest, "../") {
			return "points outside the repository"
		}
		if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(dest))); err != nil {
			return "no such file or directory " + dest
		}
	}
	if anchor == "" {
		return ""
	}
	if !strings.HasSuffix(dest, ".md") {
		return "an anchor into a file that is not Markdown"
	}
	text, ok := read(dest)
	if !ok {
		return "cannot read " + dest
	}
	if !anchors(text)[anchor] {
		return fmt.Sprintf("%s has no heading with the anchor #%s", dest, anchor)
	}
	return ""
}

// TestReadme checks the README's shape: at most maxReadmeLines lines, and
// the two set-up commands, make demo and make test, as runnable commands
// in its first lines.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail into docs/", len(lines), maxReadmeLines)
	}
	head := lines[:min(len(lines), 12)]
	for _, cmd := range []string{"make demo", "make test"} {
		found := false
		for _, l := range head {
			// An indented code line that starts with the command runs as written.
			if strings.HasPrefix(l, "    "+cmd+" ") || l == "    "+cmd {
				found = true
			}
		}
		if !found {
			t.Errorf("README.md: %q is not a command line among its first %d lines", cmd, len(head))
		}
	}
}

// TestNoSeedsInDocs checks that the docs name papers by their authors,
// not by the numbers of the project's brief ("seed 004", "the seed").
func TestNoSeedsInDocs(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, file := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if m := seedRE.FindString(l); m != "" {
				t.Errorf("%s:%d: %q: name the paper (authors, title) instead", file, i+1, m)
			}
		}
	}
}
