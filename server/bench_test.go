package server_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/tools"
)

// The stdio benchmark re-executes this test binary as the server, so the
// server process can carry the no-op tool the real binary does not have.
const (
	childEnv = "SKILLC_SERVER_TEST_CHILD"
	storeEnv = "SKILLC_SERVER_TEST_STORE" // "memory" or a SQLite file
)

func openBenchStore(spec string) (store.Store, error) {
	if spec == "memory" || spec == "" {
		return memory.New(store.Options{}), nil
	}
	return sqlite.Open(context.Background(), spec, store.Options{})
}

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

// runChild serves stdio like `skillc serve`, plus the no-op tool, on the
// store named by storeEnv.
func runChild() int {
	st, err := openBenchStore(os.Getenv(storeEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	s, err := server.New(server.Options{Planner: &tools.Planner{Store: st}, User: "bench", Session: "bench"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	addNoop(s)
	if err := s.Run(context.Background(), server.StdioTransport(os.Stdin, os.Stdout, server.DefaultMaxBodyBytes, nil)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// addNoop registers a tool that does nothing: the cost of an MCP round trip
// alone, to set beside update_plan's.
func addNoop(s *server.Server) {
	mcp.AddTool(s.MCP(), &mcp.Tool{Name: "noop", Description: "does nothing; for benchmarks"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
}

func stdioClient(b *testing.B, storeSpec string) *mcp.ClientSession {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", storeEnv+"="+storeSpec)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

func inMemoryClient(b *testing.B, storeSpec string) *mcp.ClientSession {
	b.Helper()
	st, err := openBenchStore(storeSpec)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	s, err := server.New(server.Options{Planner: &tools.Planner{Store: st}, User: "bench", Session: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	addNoop(s)
	return connect(b, s)
}

// BenchmarkRoundTrip measures one tool call from client to server and back:
// update_plan (load, apply, compare-and-swap, checklist) on the memory and
// the SQLite store beside the no-op tool, in process and over a real stdio
// pipe to a child process. Besides
// ns/op it reports the p50 and p99 latency in microseconds; run it with
// -benchtime=1000x for the 1,000 round trips the server issue asks about.
func BenchmarkRoundTrip(b *testing.B) {
	transports := []struct {
		name    string
		connect func(*testing.B, string) *mcp.ClientSession
	}{
		{"inmemory", inMemoryClient},
		{"stdio", stdioClient},
	}
	for _, tr := range transports {
		for _, tool := range []string{"noop", "update_plan"} {
			for _, storeKind := range []string{"memory", "sqlite"} {
				if tool == "noop" && storeKind == "sqlite" {
					continue // the no-op tool touches no store
				}
				b.Run(tr.name+"/"+tool+"/"+storeKind, func(b *testing.B) {
					spec := "memory"
					if storeKind == "sqlite" {
						spec = filepath.Join(b.TempDir(), "plans.db")
					}
					cs := tr.connect(b, spec)
					ctx := context.Background()
					if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "make_plan", Arguments: map[string]any{
						"title": "Bench", "steps": []map[string]any{{"goal": "A.", "recommended_tools": []string{"a"}}, {"goal": "B."}, {"goal": "C."}},
					}}); err != nil {
						b.Fatal(err)
					}
					// check and uncheck step 1 in turn: every call a real write.
					args := []map[string]any{{"check": []string{"1"}}, {"uncheck": []string{"1"}}}
					lat := make([]time.Duration, 0, 1024)
					b.ResetTimer()
					for i := 0; b.Loop(); i++ {
						p := &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}}
						if tool == "update_plan" {
							p.Arguments = args[i%2]
						}
						start := time.Now()
						res, err := cs.CallTool(ctx, p)
						lat = append(lat, time.Since(start))
						if err != nil || res.IsError {
							b.Fatalf("%s: %v %v", tool, err, res)
						}
					}
					b.StopTimer()
					slices.Sort(lat)
					b.ReportMetric(percentile(lat, 50), "p50-µs")
					b.ReportMetric(percentile(lat, 99), "p99-µs")
				})
			}
		}
	}
}

func percentile(sorted []time.Duration, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	if i > 0 {
		i--
	}
	return float64(sorted[i].Nanoseconds()) / 1e3
}
