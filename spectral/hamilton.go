package spectral

import (
	"fmt"
	"math/bits"
)

// MaxHamiltonNodes is the largest graph HasHamiltonianPath searches (its table has 2^N
// entries).
const MaxHamiltonNodes = 20

// VerifyHamiltonianCycle checks that cycle lists every node of g exactly once and that
// consecutive nodes, and the last and the first, are adjacent: a certificate that g has
// a Hamiltonian cycle, hence a Hamiltonian path (condition 2 of Exphormer's universality
// theorem). On one node the cycle needs a self loop, on two a double edge.
func VerifyHamiltonianCycle(g *Graph, cycle []int32) error {
	if err := verifyPermutation(g, cycle, "cycle"); err != nil {
		return err
	}
	n := g.N
	switch n {
	case 1:
		if multiplicity(g, 0, 0) < 2 {
			return fmt.Errorf("spectral: one-node cycle needs a self loop on node 0")
		}
		return nil
	case 2:
		if multiplicity(g, 0, 1) < 2 {
			return fmt.Errorf("spectral: two-node cycle needs a double edge between 0 and 1")
		}
		return nil
	}
	for i, u := range cycle {
		if v := cycle[(i+1)%n]; multiplicity(g, u, v) == 0 {
			return fmt.Errorf("spectral: cycle step %d: no edge between nodes %d and %d", i, u, v)
		}
	}
	return nil
}

// VerifyHamiltonianPath checks that path lists every node of g exactly once and that
// consecutive nodes are adjacent.
func VerifyHamiltonianPath(g *Graph, path []int32) error {
	if err := verifyPermutation(g, path, "path"); err != nil {
		return err
	}
	for i := 1; i < len(path); i++ {
		if multiplicity(g, path[i-1], path[i]) == 0 {
			return fmt.Errorf("spectral: path step %d: no edge between nodes %d and %d", i-1, path[i-1], path[i])
		}
	}
	return nil
}

func verifyPermutation(g *Graph, order []int32, what string) error {
	if err := checkGraph(g); err != nil {
		return err
	}
	if len(order) != g.N {
		return fmt.Errorf("spectral: %s has %d nodes, graph has %d", what, len(order), g.N)
	}
	seen := make([]bool, g.N)
	for i, v := range order {
		if v < 0 || int(v) >= g.N {
			return fmt.Errorf("spectral: %s position %d is node %d, outside [0, %d)", what, i, v, g.N)
		}
		if seen[v] {
			return fmt.Errorf("spectral: %s visits node %d twice (again at position %d)", what, v, i)
		}
		seen[v] = true
	}
	return nil
}

// multiplicity counts the entries v in the row of u (2 per self loop when u == v).
func multiplicity(g *Graph, u, v int32) int {
	c := 0
	for _, w := range g.Neighbors(int(u)) {
		if w == v {
			c++
		}
	}
	return c
}

// HasHamiltonianPath decides by dynamic programming over node subsets (O(2^N·N) time,
// 2^N·4 bytes) whether g has a path visiting every node once, and returns one if so. It
// fails on graphs of more than MaxHamiltonNodes nodes.
func HasHamiltonianPath(g *Graph) (path []int32, ok bool, err error) {
	if err := checkGraph(g); err != nil {
		return nil, false, err
	}
	n := g.N
	if n > MaxHamiltonNodes {
		return nil, false, fmt.Errorf("spectral: Hamiltonian path search on %d nodes exceeds MaxHamiltonNodes = %d", n, MaxHamiltonNodes)
	}
	adj := make([]uint32, n) // neighbour sets without self loops
	for u := range n {
		for _, v := range g.Neighbors(u) {
			if int(v) != u {
				adj[u] |= 1 << v
			}
		}
	}
	// ends[mask] is the set of nodes v such that some path visits exactly mask and ends at v.
	ends := make([]uint32, 1<<n)
	for v := range n {
		ends[1<<v] = 1 << v
	}
	for mask := 1; mask < len(ends); mask++ {
		if ends[mask] == 0 {
			continue
		}
		for w := range n {
			if mask&(1<<w) == 0 && adj[w]&ends[mask] != 0 {
				ends[mask|1<<w] |= 1 << w
			}
		}
	}
	mask := uint32(len(ends) - 1)
	if ends[mask] == 0 {
		return nil, false, nil
	}
	path = make([]int32, n)
	v := bits.TrailingZeros32(ends[mask])
	for i := n - 1; ; i-- {
		path[i] = int32(v)
		mask &^= 1 << v
		if mask == 0 {
			break
		}
		v = bits.TrailingZeros32(ends[mask] & adj[v])
	}
	return path, true, nil
}
