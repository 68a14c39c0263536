//go:build !unix

package catalog

// oNoFollow is 0 where open has no O_NOFOLLOW: readSkill then checks every
// file with admit's Lstat, as it did before the walk's type was trusted.
const oNoFollow = 0
