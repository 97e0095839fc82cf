// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

// CREATE2 deposit forwarders (decision 060): every new deposit address is the CREATE2 address of a forwarder
// for its salt under this factory, so the server needs no key for it. Customers send USDC to the address
// before any code is there; the factory's owner (the hot wallet) sweeps it: the forwarder is deployed on the
// first sweep and reused after, and its whole token balance goes to the owner. Nothing else can move it.

interface ITokenBalance {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

/// One deposit address. Only the factory that created it can move what it holds, and only to where it says.
contract DepositForwarder {
    address private immutable factory;

    constructor() {
        factory = msg.sender;
    }

    function sweep(address token, address to) external returns (uint256 amount) {
        require(msg.sender == factory, "only the factory");
        amount = ITokenBalance(token).balanceOf(address(this));
        if (amount > 0) require(ITokenBalance(token).transfer(to, amount), "token transfer failed");
    }
}

contract DepositForwarderFactory {
    /// The hot wallet: the only caller of sweep, and where every sweep sends the money.
    address public owner;
    address public immutable token;

    event Swept(bytes32 indexed salt, address indexed forwarder, uint256 amount);
    event OwnerChanged(address indexed previousOwner, address indexed newOwner);

    constructor(address owner_, address token_) {
        require(owner_ != address(0) && token_ != address(0), "zero address");
        owner = owner_;
        token = token_;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "only the owner");
        _;
    }

    /// The deposit address of `salt`, whether or not its forwarder is deployed yet.
    function addressOf(bytes32 salt) public view returns (address) {
        bytes32 hash = keccak256(
            abi.encodePacked(bytes1(0xff), address(this), salt, keccak256(type(DepositForwarder).creationCode))
        );
        return address(uint160(uint256(hash)));
    }

    /// Moves the whole token balance of `salt`'s deposit address to the owner; deploys its forwarder first if needed.
    function sweep(bytes32 salt) external onlyOwner returns (uint256 amount) {
        address forwarder = addressOf(salt);
        if (forwarder.code.length == 0) {
            forwarder = address(new DepositForwarder{salt: salt}());
        }
        amount = DepositForwarder(forwarder).sweep(token, owner);
        emit Swept(salt, forwarder, amount);
    }

    /// A hot-key rotation: the new hot wallet sweeps (and receives) from then on; the addresses stay the same.
    function changeOwner(address newOwner) external onlyOwner {
        require(newOwner != address(0), "zero address");
        emit OwnerChanged(owner, newOwner);
        owner = newOwner;
    }
}
