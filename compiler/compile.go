package compiler

// DefaultMaxSize is the largest file Compile reads unless Options.MaxSize
// says otherwise.
const DefaultMaxSize = 10 << 20

// Options tune Compile. The zero value is the default.
type Options struct {
	// MaxSize is the largest source accepted, in bytes; 0 means
	// DefaultMaxSize, a negative value means no limit.
	MaxSize int64
}

// Compile reads one workflow skill. filename is used for positions and, for
// a SKILL.md, to check the name against its folder. It always returns a
// Skill (possibly with no steps) and the diagnostics found; it never panics.
func Compile(filename string, src []byte, opts Options) (*Skill, Diagnostics) {
	panic("TODO: implemented by the compiler work")
}
