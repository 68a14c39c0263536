package lint

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/skillc/skillc/compiler"
)

// SARIF 2.1.0 output, the format GitHub code scanning and other CI tools
// read. Only what we fill is modelled; the shape follows the OASIS schema
// (https://docs.oasis-open.org/sarif/sarif/v2.1.0/). Written by hand
// because no dependency in go.mod models SARIF and the subset is small.

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// HelpURIBase is where each rule's documentation lives; helpUri is
	// this plus "#" and the rule ID.
	HelpURIBase = "https://github.com/skillc/skillc/blob/main/docs/lint.md"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifText         `json:"help"`
	HelpURI              string            `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleDefaults `json:"defaultConfiguration"`
}

type sarifRuleDefaults struct {
	Level string `json:"level"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
}

// sarifFix is SARIF's fix object (3.55): a description and the changes
// to each file. Whether --fix applies it has no SARIF property, so the
// description says "(unsafe)" for one it does not.
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

// sarifReplacement replaces DeletedRegion's text with InsertedContent;
// a region whose start and end are the same point inserts (3.57.3).
type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// SARIFOptions tune WriteSARIF.
type SARIFOptions struct {
	// Version is skillc's version, for tool.driver.version.
	Version string
	// BaseDir is what artifact URIs are made relative to; "" leaves paths
	// as given.
	BaseDir string
}

func sarifLevel(s compiler.Severity) string {
	switch s {
	case compiler.SeverityError:
		return "error"
	case compiler.SeverityWarning:
		return "warning"
	}
	return "note"
}

// WriteSARIF prints the run as a SARIF 2.1.0 log with one run. It lists a
// rule entry for each rule that has a finding, in registry order, and
// results in file order pointing at them by ruleIndex.
func WriteSARIF(w io.Writer, r *Result, opt SARIFOptions) error {
	diags := r.Diagnostics()
	used := map[string]bool{}
	for _, d := range diags {
		used[d.Rule] = true
	}
	index := map[string]int{}
	// SARIF wants a version that starts with a number: v1.2.3 becomes
	// 1.2.3, and a development build ("(devel)") is 0.0.0-devel.
	version := strings.TrimPrefix(opt.Version, "v")
	if version == "" || version[0] < '0' || version[0] > '9' {
		version = "0.0.0-devel"
	}
	driver := sarifDriver{
		Name: "skillc", Version: version,
		InformationURI: "https://github.com/skillc/skillc",
		Rules:          []sarifRule{},
	}
	addRule := func(id string, rule *Rule) {
		index[id] = len(driver.Rules)
		sr := sarifRule{ID: id, DefaultConfiguration: sarifRuleDefaults{Level: "error"}}
		if rule != nil {
			sr.HelpURI = HelpURIBase + "#" + id
			sr.ShortDescription = sarifText{rule.Summary}
			sr.FullDescription = sarifText{rule.Summary}
			sr.Help = sarifText{rule.Doc}
			if rule.Fix != "" {
				sr.Help.Text += "\n\nFix: " + rule.Fix
			}
			sr.DefaultConfiguration.Level = sarifLevel(rule.Severity)
		} else {
			sr.ShortDescription = sarifText{id}
			sr.FullDescription = sarifText{id}
			sr.Help = sarifText{id}
		}
		driver.Rules = append(driver.Rules, sr)
	}
	for _, rule := range Rules {
		if used[rule.ID] {
			addRule(rule.ID, rule)
		}
	}
	for _, d := range diags {
		if _, ok := index[d.Rule]; !ok {
			addRule(d.Rule, nil)
		}
	}

	run := sarifRun{Tool: sarifTool{Driver: driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	for _, d := range diags {
		uri := sarifURI(d.File, opt.BaseDir)
		loc := sarifPhysical{ArtifactLocation: sarifArtifactLocation{URI: uri}}
		// A finding about a whole file (unreadable) points at its start:
		// consumers expect a region on every result.
		loc.Region = &sarifRegion{StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 1}
		if start, end := startEnd(d.Range); start.Line > 0 {
			loc.Region = &sarifRegion{StartLine: int(start.Line), StartColumn: int(start.Column), EndLine: int(end.Line), EndColumn: int(end.Column)}
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += "\n" + d.Detail
		}
		// The suggestion goes in the message too, as in the text format:
		// not every one has a fix's exact edits, and not every consumer
		// shows fixes.
		if d.Suggestion != "" {
			msg += "\nfix: " + d.Suggestion
		}
		res := sarifResult{
			RuleID: d.Rule, RuleIndex: index[d.Rule], Level: sarifLevel(d.Severity),
			Message:   sarifText{msg},
			Locations: []sarifLocation{{PhysicalLocation: loc}},
			Fixes:     sarifFixes(d.Fixes, uri),
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// sarifFixes are a finding's fixes as SARIF writes them: each edit a
// replacement of its exact region (columns in code points, as the run's
// columnKind says), all in the finding's file, uri.
func sarifFixes(fixes []compiler.Fix, uri string) []sarifFix {
	var out []sarifFix
	for _, f := range fixes {
		desc := f.Title
		if !f.Safe {
			desc += " (unsafe: --unsafe-fixes applies it)"
		}
		ac := sarifArtifactChange{ArtifactLocation: sarifArtifactLocation{URI: uri}}
		for _, e := range f.Edits {
			rep := sarifReplacement{DeletedRegion: sarifRegion{
				StartLine: int(e.Range.Start.Line), StartColumn: int(e.Range.Start.Column),
				EndLine: int(e.Range.End.Line), EndColumn: int(e.Range.End.Column),
			}}
			if e.NewText != "" {
				rep.InsertedContent = &sarifText{e.NewText}
			}
			ac.Replacements = append(ac.Replacements, rep)
		}
		if len(ac.Replacements) > 0 {
			out = append(out, sarifFix{Description: sarifText{desc}, ArtifactChanges: []sarifArtifactChange{ac}})
		}
	}
	return out
}

// sarifURI is a URI for a path: relative to the base folder when the file
// is under it (slash-separated), else an absolute file URI, with characters
// that are not allowed in a URI path escaped.
func sarifURI(path, base string) string {
	p := path
	if base != "" {
		if abs, err := filepath.Abs(path); err == nil {
			if b, err := filepath.Abs(base); err == nil {
				if rel, err := filepath.Rel(b, abs); err == nil && !strings.HasPrefix(rel, "..") {
					p = rel
				}
			}
		}
	}
	p = filepath.ToSlash(p)
	var b strings.Builder
	if filepath.IsAbs(path) && p == filepath.ToSlash(path) {
		// Outside the base folder: an absolute file URI, not a path
		// that readers would take as relative to the repository.
		b.WriteString("file://")
		if !strings.HasPrefix(p, "/") {
			b.WriteByte('/') // C:/x on Windows
		}
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/!$&'()*+,;=@", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + strings.ToUpper(hex2(c)))
		}
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}
