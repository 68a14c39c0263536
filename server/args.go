package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// args decodes the arguments of a tool whose input schema is flat: an
// object of strings (perhaps an enum), booleans and lists of strings, with
// no other properties. It refuses exactly what that schema refuses, with a
// message that names the argument and says what it should be, and costs a
// fraction of the SDK's generic path (decode to a map, validate by
// reflection, encode, decode again), which was a quarter of the server's
// CPU per update_plan.
//
// It is compiled from the schema the tool advertises, so the two cannot
// drift apart; a schema it cannot check is a programming error (panic).
type args struct {
	tool     string
	names    []string // in declared order, for messages
	props    map[string]argProp
	required []string
}

type argProp struct {
	kind  string   // "string", "boolean" or "array" (of strings)
	enum  []string // the allowed values of a string, if limited
	field int      // the struct field it decodes into
	desc  string   // the schema's description: what a required one is for
}

// newArgs compiles sc, the input schema inferred from T and edited, for T.
func newArgs[T any](tool string, sc *jsonschema.Schema) *args {
	a := &args{tool: tool, props: map[string]argProp{}, required: sc.Required}
	if sc.Type != "object" || sc.AdditionalProperties == nil || sc.AdditionalProperties.Not == nil {
		panic(fmt.Sprintf("%s: the input schema is not a closed object", tool))
	}
	fields := map[string]int{}
	rt := reflect.TypeFor[T]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		fields[name] = i
	}
	for _, name := range sc.PropertyOrder {
		p := sc.Properties[name]
		ap := argProp{kind: p.Type, field: fields[name], desc: p.Description}
		switch {
		case p.Type == "string":
			for _, v := range p.Enum {
				ap.enum = append(ap.enum, v.(string))
			}
		case p.Type == "boolean" && p.Enum == nil:
		case p.Type == "array" && p.Items != nil && p.Items.Type == "string" && p.Items.Enum == nil:
		default:
			panic(fmt.Sprintf("%s: argument %q: a schema args cannot check", tool, name))
		}
		a.names = append(a.names, name)
		a.props[name] = ap
	}
	if len(a.names) != len(sc.Properties) || len(a.names) != rt.NumField() {
		panic(fmt.Sprintf("%s: the schema's properties and %s's fields differ", tool, rt))
	}
	return a
}

// decode checks raw against the schema and decodes it into dst, a pointer
// to the T of newArgs. Absent or null arguments are an empty object, as the
// SDK takes them. A key given twice counts once, the last time, as in the
// SDK.
func (a *args) decode(raw json.RawMessage, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if raw[0] != '{' {
		return fmt.Errorf("the arguments must be a JSON object, got %s", kindOf(raw))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("the arguments are not valid JSON: %v", err)
	}
	var unknown []string
	for name := range fields {
		if _, ok := a.props[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		what := "argument"
		if len(unknown) > 1 {
			what = "arguments"
		}
		return fmt.Errorf("unexpected %s %s: %s takes %s", what, quoteAll(unknown), a.tool, strings.Join(a.names, ", "))
	}
	for _, name := range a.required {
		if _, ok := fields[name]; !ok {
			return fmt.Errorf("%s is required: %s", name, a.props[name].desc)
		}
	}
	v := reflect.ValueOf(dst).Elem()
	for _, name := range a.names {
		val, ok := fields[name]
		if !ok {
			continue
		}
		p := a.props[name]
		if err := p.check(name, val); err != nil {
			return err
		}
		if err := json.Unmarshal(val, v.Field(p.field).Addr().Interface()); err != nil {
			return fmt.Errorf("%s: %v", name, err) // checked above: not reached
		}
	}
	return nil
}

// check refuses val for the argument name unless it has p's type (and is
// one of its enum).
func (p argProp) check(name string, val json.RawMessage) error {
	switch p.kind {
	case "boolean":
		if s := string(val); s != "true" && s != "false" {
			return fmt.Errorf("%s must be true or false, got %s", name, kindOf(val))
		}
	case "string":
		if val[0] != '"' {
			return fmt.Errorf("%s must be a string, got %s", name, kindOf(val))
		}
		if p.enum != nil {
			var s string
			if err := json.Unmarshal(val, &s); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			if !slices.Contains(p.enum, s) {
				return fmt.Errorf("%s %q is not one of %s", name, s, orList(p.enum))
			}
		}
	case "array":
		if val[0] != '[' {
			hint := ""
			if val[0] == 'n' {
				hint = "; leave it out for none"
			}
			return fmt.Errorf("%s must be a list of strings (step IDs), got %s%s", name, kindOf(val), hint)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(val, &items); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		for i, it := range items {
			if it[0] != '"' {
				return fmt.Errorf("%s[%d] must be a string (a step ID), got %s", name, i, kindOf(it))
			}
		}
	}
	return nil
}

// kindOf names the JSON type of a valid JSON value, with an article.
func kindOf(val json.RawMessage) string {
	switch val[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// orList is "a, b or c".
func orList(vals []string) string {
	if len(vals) < 2 {
		return strings.Join(vals, "")
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}
