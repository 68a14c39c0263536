package server_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skillc/skillc/server"
)

// TestLoadTokensMode: a tokens file that group or others can read or write
// is refused, as ssh refuses such a private key, and the message says how
// to fix it.
func TestLoadTokensMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	tests := []struct {
		mode os.FileMode
		ok   bool
	}{
		{0o600, true},
		{0o400, true},
		{0o644, false},
		{0o666, false},
		{0o640, false},
		{0o604, false},
		{0o620, false},
	}
	for _, tc := range tests {
		t.Run(tc.mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tokens")
			if err := os.WriteFile(path, []byte("0123456789abcdef alice\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			// Chmod, not WriteFile's mode: the umask would mask the bits
			// under test.
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			tok, err := server.LoadTokens(path)
			if tc.ok {
				if err != nil || tok.Len() != 1 {
					t.Fatalf("LoadTokens: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("mode %04o accepted", tc.mode)
			}
			for _, want := range []string{"chmod 600 " + path, "group or others"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestLoadTokensNotRegular(t *testing.T) {
	_, err := server.LoadTokens(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory as the tokens file: %v", err)
	}
}

// TestParseTokensUserNotUTF8: a user name with a byte that is not UTF-8
// (0xA0 alone) is refused where it is read, not later by the store.
func TestParseTokensUserNotUTF8(t *testing.T) {
	_, err := server.ParseTokens("tokens", []byte("0123456789abcdef al\xa0ice\n"))
	if err == nil || !strings.Contains(err.Error(), "tokens:1: user") {
		t.Errorf("err = %v, want a refusal of line 1's user", err)
	}
}

// TestTokensCookie: the web view's cookie stands for its token's user,
// is neither the token nor its bearer digest, and nothing else passes.
func TestTokensCookie(t *testing.T) {
	tok := testTokens(t)
	aliceCookie, user, ok := tok.Cookie(aliceToken)
	if !ok || user != "alice" || len(aliceCookie) != 64 {
		t.Fatalf("Cookie(alice's token) = %q, %q, %v", aliceCookie, user, ok)
	}
	if _, _, ok := tok.Cookie("not-a-token-of-ours"); ok {
		t.Fatal("a cookie for an unknown token")
	}
	bobCookie, _, _ := tok.Cookie(bobToken)
	for _, tc := range []struct {
		name, value, user string
	}{
		{"alice's", aliceCookie, "alice"},
		{"bob's", bobCookie, "bob"},
		{"upper case hex", strings.ToUpper(aliceCookie), "alice"},
		{"the token itself", aliceToken, ""},
		{"one digit changed", aliceCookie[:63] + string("01"[(aliceCookie[63]-'0'+1)%2]), ""},
		{"too short", aliceCookie[:62], ""},
		{"not hex", strings.Repeat("zz", 32), ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user, ok := tok.UserByCookie(tc.value)
			if user != tc.user || ok != (tc.user != "") {
				t.Errorf("UserByCookie(%q) = %q, %v; want %q", tc.value, user, ok, tc.user)
			}
		})
	}
	if _, ok := tok.User(aliceCookie); ok {
		t.Error("the cookie works as a bearer token")
	}
}
