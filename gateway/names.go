package gateway

import (
	"slices"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sep joins a server's name and a tool's when two servers offer the same
// tool: fs__read_file.
const Sep = "__"

// Offered is one upstream tool as the gateway offers it.
type Offered struct {
	// Name is what clients call it: the upstream's name, or
	// SERVER__name when another server (or a plan tool) has it too.
	Name     string
	Upstream string
	// Tool is the upstream's definition; its Name is the upstream's.
	Tool *mcp.Tool
}

// Names is the gateway's tool naming at one moment: every offered tool,
// and how the names a skill writes resolve to them.
type Names struct {
	offered []Offered
	byName  map[string]*Offered
	// plain maps an upstream tool name to every offered name it stands
	// for: itself, or SERVER__name for each server when it clashed.
	plain map[string][]string
	// qualified maps SERVER__name to the offered name, whatever the
	// clash: a skill may always write the long form.
	qualified map[string]string
}

// NameTools names the tools of each upstream (by server name). A tool name
// that two servers share, or that is reserved (the plan tools), is offered
// as SERVER__tool for each server that has it; any other keeps its name.
func NameTools(tools map[string][]*mcp.Tool, reserved []string) *Names {
	count := map[string]int{}
	for _, r := range reserved {
		count[r] += 2 // a reserved name always clashes
	}
	servers := make([]string, 0, len(tools))
	for srv, list := range tools {
		servers = append(servers, srv)
		seen := map[string]bool{}
		for _, t := range list {
			if !seen[t.Name] {
				seen[t.Name] = true
				count[t.Name]++
			}
		}
	}
	sort.Strings(servers)
	n := &Names{byName: map[string]*Offered{}, plain: map[string][]string{}, qualified: map[string]string{}}
	for _, srv := range servers {
		seen := map[string]bool{}
		for _, t := range tools[srv] {
			if seen[t.Name] {
				continue // a server that lists a name twice: the first wins
			}
			seen[t.Name] = true
			name := t.Name
			if count[name] > 1 {
				name = srv + Sep + t.Name
			}
			n.offered = append(n.offered, Offered{Name: name, Upstream: srv, Tool: t})
			if !slices.Contains(reserved, t.Name) { // make_plan is the plan tool
				n.plain[t.Name] = append(n.plain[t.Name], name)
			}
			n.qualified[srv+Sep+t.Name] = name
		}
	}
	for i := range n.offered {
		n.byName[n.offered[i].Name] = &n.offered[i]
	}
	return n
}

// All lists the offered tools, by server and then in the server's order.
func (n *Names) All() []Offered {
	if n == nil {
		return nil
	}
	return n.offered
}

// Lookup finds an offered tool by the name clients call.
func (n *Names) Lookup(name string) (*Offered, bool) {
	if n == nil {
		return nil, false
	}
	o, ok := n.byName[name]
	return o, ok
}

// Resolve returns the offered names that a name a skill writes stands for:
// an offered name itself, SERVER__tool, or a plain tool name that clashed
// (all its servers' tools). It returns nil for a name no upstream offers,
// such as one of the host's own tools.
func (n *Names) Resolve(name string) []string {
	if n == nil {
		return nil
	}
	if q, ok := n.qualified[name]; ok {
		return []string{q}
	}
	if p, ok := n.plain[name]; ok {
		return p
	}
	// A permission pattern of allowed-tools, Bash(git:*), names Bash.
	if i := strings.IndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
		return n.Resolve(name[:i])
	}
	return nil
}
