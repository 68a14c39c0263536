package server

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinTokenLength is the shortest bearer token a tokens file may hold: a
// guessable token is no authentication.
const MinTokenLength = 16

// Tokens maps bearer tokens to users.
//
// The file format is one token per line, `TOKEN USER`, separated by white
// space; blank lines and lines starting with # are ignored:
//
//	# skillc serve --tokens
//	4f9c2d0e8b7a6f5e4d3c2b1a  alice
//	a1b2c3d4e5f60718293a4b5c  bob
//
// A line format rather than YAML so that `echo "$(openssl rand -hex 16) alice" >> tokens`
// is all it takes to add one.
type Tokens struct {
	entries []tokenEntry
}

type tokenEntry struct {
	// sum is the SHA-256 of the token: comparing fixed-size digests in
	// constant time hides the token's length as well as its content.
	sum [sha256.Size]byte
	// cookie is what the web view's sign-in cookie holds for this token
	// (Cookie): derived from it, so the token itself never sits in a
	// browser, and not sum, so the cookie is no bearer token.
	cookie [sha256.Size]byte
	user   string
}

// cookieDigest derives a token's web view cookie.
func cookieDigest(token string) [sha256.Size]byte {
	return sha256.Sum256([]byte("skillc web view cookie\x00" + token))
}

// LoadTokens reads a tokens file. Like ssh with a private key, it refuses
// a file that group or others may read or write: the tokens are
// credentials, and a file anyone on the machine can read leaks every one.
func LoadTokens(path string) (*Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tokens file: %w", err)
	}
	defer f.Close()
	// Stat the open file, not the path, so the mode checked is the mode of
	// the bytes read.
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("tokens file: %w", err)
	}
	if err := checkTokensMode(path, fi.Mode()); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("tokens file: %w", err)
	}
	return ParseTokens(path, data)
}

// checkTokensMode refuses a tokens file that is not a regular file or
// that group or others can access. Windows has no such permission bits
// (Go reports 0666 for every writable file), so the check is Unix only.
func checkTokensMode(path string, mode fs.FileMode) error {
	if !mode.IsRegular() {
		return fmt.Errorf("tokens file %s is not a regular file (%s); want a file of lines `TOKEN USER`", path, mode.Type())
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	if perm := mode.Perm(); perm&0o077 != 0 {
		return fmt.Errorf("tokens file %s has mode %04o: group or others can access the tokens; make it private with `chmod 600 %s`", path, perm, path)
	}
	return nil
}

// ParseTokens reads the tokens file format; name is used in error messages.
func ParseTokens(name string, data []byte) (*Tokens, error) {
	t := &Tokens{}
	seen := map[[sha256.Size]byte]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want `TOKEN USER` (two fields), got %d fields", name, line, len(fields))
		}
		token, user := fields[0], fields[1]
		if len(token) < MinTokenLength {
			return nil, fmt.Errorf("%s:%d: token is %d characters; use at least %d (e.g. `openssl rand -hex 16`)", name, line, len(token), MinTokenLength)
		}
		if !printable(user) || len(user) > 256 {
			return nil, fmt.Errorf("%s:%d: user %q: want 1-256 printable characters of valid UTF-8", name, line, user)
		}
		sum := sha256.Sum256([]byte(token))
		if prev, ok := seen[sum]; ok {
			return nil, fmt.Errorf("%s:%d: the same token is already on line %d; each token maps to one user", name, line, prev)
		}
		seen[sum] = line
		t.entries = append(t.entries, tokenEntry{sum: sum, cookie: cookieDigest(token), user: user})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if len(t.entries) == 0 {
		return nil, fmt.Errorf("%s: no tokens; add lines `TOKEN USER`", name)
	}
	return t, nil
}

// User returns the user a token maps to. Every entry is compared, match or
// not, so the time taken says nothing about which entry matched.
func (t *Tokens) User(token string) (string, bool) {
	sum := sha256.Sum256([]byte(token))
	found := -1
	for i := range t.entries {
		if subtle.ConstantTimeCompare(sum[:], t.entries[i].sum[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return "", false
	}
	return t.entries[found].user, true
}

// Cookie returns the web view's sign-in cookie for a token, and its user;
// false when the token is none of these.
func (t *Tokens) Cookie(token string) (value, user string, ok bool) {
	if user, ok = t.User(token); !ok {
		return "", "", false
	}
	d := cookieDigest(token)
	return hex.EncodeToString(d[:]), user, true
}

// UserByCookie returns the user a sign-in cookie stands for, comparing
// every entry in constant time as User does.
func (t *Tokens) UserByCookie(value string) (string, bool) {
	var d [sha256.Size]byte
	if len(value) != hex.EncodedLen(len(d)) {
		return "", false
	}
	if _, err := hex.Decode(d[:], []byte(value)); err != nil {
		return "", false
	}
	found := -1
	for i := range t.entries {
		if subtle.ConstantTimeCompare(d[:], t.entries[i].cookie[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return "", false
	}
	return t.entries[found].user, true
}

// Len is the number of tokens.
func (t *Tokens) Len() int { return len(t.entries) }

// printable reports whether s is non-empty, valid UTF-8 and free of
// control and other non-printing characters. Ranging over invalid UTF-8
// yields U+FFFD, which is printable, so validity is checked first: a byte
// such as 0xA0 would otherwise get through and fail later in a store that
// wants UTF-8 (PostgreSQL).
func printable(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
