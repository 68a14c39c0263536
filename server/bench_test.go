package server_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/server"
	"github.com/skillc/skillc/store"
	"github.com/skillc/skillc/store/memory"
	"github.com/skillc/skillc/store/postgres"
	"github.com/skillc/skillc/store/postgres/pgtest"
	"github.com/skillc/skillc/store/sqlite"
	"github.com/skillc/skillc/tools"
)

// The stdio benchmark re-executes this test binary as the server, so the
// server process can carry the no-op tool the real binary does not have.
const (
	childEnv = "SKILLC_SERVER_TEST_CHILD"
	storeEnv = "SKILLC_SERVER_TEST_STORE" // "memory", "postgres://..." or a SQLite file
	// profileEnv names a file for the HTTP child's CPU profile: the
	// server's alone, without the benchmark's client.
	profileEnv = "SKILLC_SERVER_TEST_CPUPROFILE"
)

// openBenchStore opens "memory", "postgres://..." (as `skillc serve
// --store` does) or a SQLite file.
func openBenchStore(spec string) (store.Store, error) {
	switch {
	case spec == "memory" || spec == "":
		return memory.New(store.Options{}), nil
	case strings.HasPrefix(spec, "postgres://"):
		return postgres.Open(context.Background(), spec, postgres.Options{})
	}
	return sqlite.Open(context.Background(), spec, store.Options{})
}

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "1":
		os.Exit(runChild())
	case "http":
		os.Exit(runHTTPChild())
	case "sdk-echo":
		os.Exit(runSDKEcho())
	}
	os.Exit(m.Run())
}

// runChild serves stdio like `skillc serve`, plus the no-op tool, on the
// store named by storeEnv.
func runChild() int {
	server.TuneGC()
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

// runHTTPChild serves streamable HTTP on a loopback port, as `skillc serve
// --http 127.0.0.1:0 --user bench` does, on the store named by storeEnv,
// and prints the address on stdout.
func runHTTPChild() int {
	if path := os.Getenv(profileEnv); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	server.TuneGC()
	st, err := openBenchStore(os.Getenv(storeEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	s, err := server.New(server.Options{Planner: &tools.Planner{Store: st}, User: "bench"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(ln.Addr().String())
	// The parent ends the child by closing its stdin.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		cancel()
	}()
	if err := s.Serve(ctx, ln, s.Handler(server.HTTPOptions{})); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// httpChild starts the HTTP server child on storeSpec and returns its
// address and its process, whose CPU time the benchmark reads.
func httpChild(b *testing.B, storeSpec string) (string, *os.Process) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=http", storeEnv+"="+storeSpec)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		_ = cmd.Wait()
	})
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("the HTTP child did not start: %v", err)
	}
	return strings.TrimSpace(addr), cmd.Process
}

// cpuTime is the user plus system CPU time process pid has used so far
// (Linux: /proc/PID/stat, in clock ticks of 10 ms).
func cpuTime(b *testing.B, pid int) time.Duration {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// selfCPU is the CPU time this process (the benchmark's clients) has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHTTPThroughput measures update_plan calls per second over real
// streamable HTTP, with 1 and 16 MCP sessions (each its own conversation
// and plan) calling at once, each through the Go SDK client. The server is
// a child process (the test binary serving as `skillc serve --http` does),
// so the client's CPU is not counted in server-µs/op: the server's own CPU
// time per call (client-µs/op is the benchmark process's). PostgreSQL runs with SKILLC_TEST_POSTGRES set.
//
//	go test ./server -run '^$' -bench HTTPThroughput -benchtime 4000x -count 5
func BenchmarkHTTPThroughput(b *testing.B) {
	eachHTTPStore(b, benchHTTP)
}

// eachHTTPStore runs bench against an HTTP server child on each store,
// with 1 and 16 sessions.
func eachHTTPStore(b *testing.B, bench func(b *testing.B, url string, pid, sessions int)) {
	for _, storeKind := range []string{"memory", "sqlite", "postgres"} {
		for _, sessions := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/sessions=%d", storeKind, sessions), func(b *testing.B) {
				spec := "memory"
				switch storeKind {
				case "sqlite":
					spec = filepath.Join(b.TempDir(), "plans.db")
				case "postgres":
					dsn := pgtest.DSN(b)
					spec = pgtest.WithSearchPath(b, dsn, pgtest.Schema(b, dsn))
				}
				addr, proc := httpChild(b, spec)
				bench(b, "http://"+addr, proc.Pid, sessions)
			})
		}
	}
}

func benchHTTP(b *testing.B, url string, pid, sessions int) {
	ctx := context.Background()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * sessions}}
	b.Cleanup(hc.CloseIdleConnections)
	clients := make([]*mcp.ClientSession, sessions)
	for i := range clients {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: url + server.MCPPath, HTTPClient: hc, MaxRetries: -1}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close() })
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "make_plan", Arguments: map[string]any{
			"title": "Bench", "steps": []map[string]any{{"goal": "A.", "recommended_tools": []string{"a"}}, {"goal": "B."}, {"goal": "C."}},
		}}); err != nil {
			b.Fatal(err)
		}
		clients[i] = cs
	}
	// check and uncheck step 1 in turn: every call a real write.
	args := []map[string]any{{"check": []string{"1"}}, {"uncheck": []string{"1"}}}
	var next atomic.Int64
	var wg sync.WaitGroup
	cpu0, self0 := cpuTime(b, pid), selfCPU()
	b.ResetTimer()
	for _, cs := range clients {
		wg.Go(func() {
			for k := 0; next.Add(1) <= int64(b.N); k++ {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "update_plan", Arguments: args[k%2]})
				if err != nil || res.IsError {
					b.Errorf("update_plan: %v %v", err, res)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	reportHTTP(b, pid, cpu0, self0)
}

// reportHTTP reports the calls per second and the server's (process pid)
// and the benchmark's CPU time per call since cpu0 and self0.
func reportHTTP(b *testing.B, pid int, cpu0, self0 time.Duration) {
	cpu, self := cpuTime(b, pid)-cpu0, selfCPU()-self0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "server-µs/op")
	b.ReportMetric(float64(self.Microseconds())/float64(b.N), "client-µs/op")
}
