package filter

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteTo writes the filter in Score-P's syntax, which Parse and Score-P
// read back to the same rules: Header as comment lines, then the region
// rules and the file rules, each kind in one block, one pattern per line
// with its Comment after it. Consecutive patterns of one rule share its
// keyword. A pattern that would not read back as itself (empty, a
// keyword, with an unquoted space or '#', a newline, a NUL or a final
// backslash: use Quote) is an error, and nothing is written.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	for _, rules := range [][]Rule{f.Regions, f.Files} {
		for _, r := range rules {
			if err := checkPattern(r.Pattern); err != nil {
				return 0, err
			}
		}
	}
	cw := &countWriter{w: bufio.NewWriter(w)}
	for _, line := range splitComment(f.Header) {
		fmt.Fprintf(cw, "# %s\n", line)
	}
	sep := len(f.Header) > 0
	for _, b := range []struct {
		begin, end string
		rules      []Rule
	}{{regionsBegin, regionsEnd, f.Regions}, {filesBegin, filesEnd, f.Files}} {
		if len(b.rules) == 0 {
			continue
		}
		if sep {
			fmt.Fprintln(cw)
		}
		sep = true
		fmt.Fprintln(cw, b.begin)
		writeRules(cw, b.rules)
		fmt.Fprintln(cw, b.end)
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil && cw.err == nil {
		cw.err = err
	}
	return cw.n, cw.err
}

// writeRules writes the rules of a block.
func writeRules(w io.Writer, rules []Rule) {
	for i, r := range rules {
		kw := "EXCLUDE"
		if !r.Exclude {
			kw = "INCLUDE"
		}
		if r.Mangled {
			kw += " MANGLED"
		}
		if i > 0 && rules[i-1].Exclude == r.Exclude && rules[i-1].Mangled == r.Mangled {
			kw = strings.Repeat(" ", len(kw))
		}
		line := "  " + kw + " " + r.Pattern
		if c := splitComment(r.Comment); len(c) > 0 {
			line += "  # " + strings.Join(c, " ")
		}
		fmt.Fprintln(w, line)
	}
}

// splitComment splits a comment into its lines, without empty ends.
func splitComment(s string) []string {
	s = strings.Trim(strings.ReplaceAll(s, "\r", ""), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// checkPattern returns an error if pattern would not read back as one
// token equal to itself.
func checkPattern(pattern string) error {
	bad := func(why string) error { return fmt.Errorf("filter pattern %q %s", pattern, why) }
	switch {
	case pattern == "":
		return bad("is empty")
	case keywords[pattern]:
		return bad("is a keyword (quote it: " + Quote(pattern) + ")")
	case strings.HasSuffix(pattern, "\\"):
		return bad("ends in a backslash")
	case strings.ContainsAny(pattern, "\n\x00"):
		return bad("holds a newline or a NUL byte")
	}
	for i := 0; i < len(pattern); i++ {
		if (isSpace(pattern[i]) || pattern[i] == '#') && (i == 0 || pattern[i-1] != '\\') {
			return bad("holds an unquoted space or '#'")
		}
	}
	return nil
}

// Quote returns the pattern that matches exactly the name s: wildcard
// bytes, backslashes, white space and '#' quoted; a newline or a NUL,
// which a filter file cannot hold, becomes '?'.
func Quote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*', '?', '[', ' ', '\t', '\r', '#':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\\':
			b.WriteString(`[\\]`) // a final backslash would join the next token
		case '\n', 0:
			b.WriteByte('?')
		default:
			if i == 0 && keywords[s] {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// countWriter counts what it writes and keeps the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
