package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillc/skillc/internal/upstreamtest"
)

// BenchmarkGatewayForward compares a call forwarded by `skillc serve
// --upstreams` (the binary, over stdio) with the same call made to the
// upstream directly (the everything server's echo, over stdio), one of
// each per iteration so both see the same machine load. It reports the
// p50 and p99 latency of each and their ratios; the goal is a p50 ratio
// of at most 1.3. Under enforce every call is also checked against the
// plan. A third call of each iteration goes through byteCopy, a process
// that only copies bytes between the client and the upstream: the least
// any stdio proxy costs, its two extra pipe hops and process wake-ups
// (proxy-p50-ratio), against which the gateway's own work shows.
// gateway-cpu-µs/call is the skillc process's own CPU time (user plus
// system) per forwarded call, which a loaded machine disturbs less than
// the latencies; proxy-cpu-µs/call is byteCopy's.
//
//	go test ./cmd/skillc -run '^$' -bench GatewayForward -benchtime 1000x
func BenchmarkGatewayForward(b *testing.B) {
	node, entry := upstreamtest.Everything(b)
	bin, err := exec.LookPath("skillc")
	if err != nil {
		b.Fatal(err)
	}
	bytecopy, err := exec.LookPath("bytecopy")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	up := filepath.Join(dir, "upstreams.json")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": node, "args": []string{entry, "stdio"}}}})
	if err := os.WriteFile(up, cfg, 0o644); err != nil {
		b.Fatal(err)
	}
	connect := func(b *testing.B, cmd *exec.Cmd) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close() })
		return cs
	}
	for _, gate := range []string{"list", "enforce"} {
		b.Run("gate="+gate, func(b *testing.B) {
			direct := connect(b, exec.Command(node, entry, "stdio"))
			proxyCmd := exec.Command(bytecopy, node, entry, "stdio")
			proxy := connect(b, proxyCmd)
			cmd := exec.Command(bin, "serve", "--store", "sqlite:"+filepath.Join(b.TempDir(), "plans.db"), "--upstreams", up, "--gate", gate)
			cmd.Env = childEnvWithout("SKILLC_USER=bench", "SKILLC_SESSION=bench")
			via := connect(b, cmd)
			pid := cmd.Process.Pid
			ctx := context.Background()
			if gate == "enforce" {
				res, err := via.CallTool(ctx, &mcp.CallToolParams{Name: "make_plan", Arguments: map[string]any{"title": "Echo", "steps": []map[string]any{{"goal": "Echo.", "recommended_tools": []string{"echo"}}}}})
				if err != nil || res.IsError {
					b.Fatalf("make_plan: %v %+v", err, res)
				}
			}
			call := func(cs *mcp.ClientSession) time.Duration {
				start := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello"}})
				d := time.Since(start)
				if err != nil || res.IsError {
					b.Fatalf("echo: %v %+v", err, res)
				}
				return d
			}
			for range 20 { // warm them up: JIT, connections, SQLite pages
				call(direct)
				call(proxy)
				call(via)
			}
			var dd, pd, vd []time.Duration
			cpu0, pcpu0 := processCPU(b, pid), processCPU(b, proxyCmd.Process.Pid)
			b.ResetTimer()
			for range b.N {
				dd = append(dd, call(direct))
				pd = append(pd, call(proxy))
				vd = append(vd, call(via))
			}
			b.StopTimer()
			cpu, pcpu := processCPU(b, pid)-cpu0, processCPU(b, proxyCmd.Process.Pid)-pcpu0
			q := func(ds []time.Duration, p float64) float64 {
				s := slices.Clone(ds)
				slices.Sort(s)
				return float64(s[min(len(s)-1, int(p*float64(len(s))))].Microseconds())
			}
			b.ReportMetric(q(dd, 0.5), "direct-p50-µs")
			b.ReportMetric(q(vd, 0.5), "gateway-p50-µs")
			b.ReportMetric(q(dd, 0.99), "direct-p99-µs")
			b.ReportMetric(q(vd, 0.99), "gateway-p99-µs")
			b.ReportMetric(q(pd, 0.5), "proxy-p50-µs")
			b.ReportMetric(q(vd, 0.5)/q(dd, 0.5), "p50-ratio")
			b.ReportMetric(q(pd, 0.5)/q(dd, 0.5), "proxy-p50-ratio")
			b.ReportMetric(q(vd, 0.99)/q(dd, 0.99), "p99-ratio")
			// What each way adds to a call at p50, in µs: the gateway's
			// own work is the difference of the two.
			b.ReportMetric(q(vd, 0.5)-q(dd, 0.5), "gateway-added-p50-µs")
			b.ReportMetric(q(pd, 0.5)-q(dd, 0.5), "proxy-added-p50-µs")
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "gateway-cpu-µs/call")
			b.ReportMetric(float64(pcpu.Microseconds())/float64(b.N), "proxy-cpu-µs/call")
		})
	}
}

// processCPU is the user plus system CPU time process pid has used so far
// (Linux: /proc/PID/stat, in clock ticks of 10 ms; elsewhere the
// benchmark skips).
func processCPU(b *testing.B, pid int) time.Duration {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// byteCopy runs the command its arguments name and copies its own stdin
// to the command's and the command's stdout to its own, nothing else: the
// simplest stdio proxy there is, as BenchmarkGatewayForward's floor.
func byteCopy() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		os.Exit(1)
	}
	out, err := cmd.StdoutPipe()
	if err != nil || cmd.Start() != nil {
		os.Exit(1)
	}
	go func() {
		io.Copy(in, os.Stdin)
		in.Close()
	}()
	io.Copy(os.Stdout, out)
	os.Exit(0)
}
